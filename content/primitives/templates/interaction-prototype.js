(function () {
  "use strict";
  var data = window.pmxData || {};
  var controls = Array.isArray(data.controls) ? data.controls : [];
  var values = {};
  function unitOf(i) {
    var c = controls[i];
    return c && typeof c.unit === "string" ? c.unit : "";
  }
  document.querySelectorAll("[data-control]").forEach(function (box) {
    var i = Number(box.getAttribute("data-control"));
    var input = box.querySelector("input");
    var out = box.querySelector("output");
    var c = controls[i] || {};
    var key = typeof c.key === "string" && c.key ? c.key : "control" + i;
    function read() {
      if (input.type === "checkbox") { return input.checked; }
      if (input.type === "range" || input.type === "number") { return Number(input.value); }
      return input.value;
    }
    function show() {
      var v = read();
      values[key] = v;
      if (input.type === "checkbox") { out.textContent = v ? "On" : "Off"; }
      else if (input.type === "range") { out.textContent = String(v) + unitOf(i); }
    }
    input.addEventListener("input", show);
    input.addEventListener("change", show);
    show();
  });
  var tabs = document.querySelectorAll("[data-screen]");
  var panels = document.querySelectorAll("[data-screen-panel]");
  var current = 0;
  function go(n) {
    if (!panels.length) { return; }
    current = (n + panels.length) % panels.length;
    panels.forEach(function (p, i) { p.classList.toggle("is-active", i === current); });
    tabs.forEach(function (t, i) {
      t.classList.toggle("is-active", i === current);
      t.setAttribute("aria-selected", i === current ? "true" : "false");
    });
  }
  tabs.forEach(function (t) {
    t.addEventListener("click", function () { go(Number(t.getAttribute("data-screen"))); });
  });
  document.querySelectorAll("[data-step]").forEach(function (b) {
    b.addEventListener("click", function () { go(current + Number(b.getAttribute("data-step"))); });
  });
  window.pmxState = function () {
    var copy = JSON.parse(JSON.stringify(data));
    copy.values = values;
    copy.screen = current;
    return copy;
  };
})();
