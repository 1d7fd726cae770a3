(function () {
  "use strict";
  var data = window.pmxData || {};
  var flags = Array.isArray(data.flags) ? data.flags : [];
  var rows = Array.prototype.slice.call(document.querySelectorAll("[data-flag]"));
  var byIndex = {};
  rows.forEach(function (r) { byIndex[r.getAttribute("data-flag")] = r; });
  var initial = rows.map(function (r) { return r.querySelector("input").checked; });
  var status = document.querySelector("[data-status]");
  function on(i) {
    var r = byIndex[i];
    return !!(r && r.querySelector("input").checked);
  }
  function update() {
    var changed = 0;
    rows.forEach(function (r, k) {
      var input = r.querySelector("input");
      if (input.checked !== initial[k]) { changed++; }
      var reqs = (r.getAttribute("data-requires") || "").split(" ").filter(Boolean);
      var blocked = input.checked && reqs.some(function (i) { return !on(i); });
      r.classList.toggle("is-blocked", blocked);
      r.querySelector("[data-warning]").hidden = !blocked;
    });
    if (status) {
      status.textContent = changed ? changed + (changed === 1 ? " change" : " changes") + " from the proposed config." : "No changes.";
      status.classList.toggle("is-changed", changed > 0);
    }
  }
  rows.forEach(function (r) { r.querySelector("input").addEventListener("change", update); });
  update();
  window.pmxState = function () {
    var copy = JSON.parse(JSON.stringify(data));
    copy.flags = flags.map(function (f, i) {
      var g = JSON.parse(JSON.stringify(f || {}));
      g.enabled = on(String(i));
      return g;
    });
    return copy;
  };
})();
