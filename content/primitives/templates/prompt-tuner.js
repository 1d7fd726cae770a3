(function () {
  "use strict";
  var prompts = [];
  try { prompts = JSON.parse(document.getElementById("pmx-prompts").textContent) || []; } catch (e) { prompts = []; }
  var tabs = Array.prototype.slice.call(document.querySelectorAll("[data-sample]"));
  var panels = Array.prototype.slice.call(document.querySelectorAll("[data-sample-panel]"));
  var current = 0;
  function show(n) {
    current = n;
    panels.forEach(function (p, i) { p.classList.toggle("is-active", i === n); });
    tabs.forEach(function (t, i) {
      t.classList.toggle("is-active", i === n);
      t.setAttribute("aria-selected", i === n ? "true" : "false");
    });
  }
  tabs.forEach(function (t) {
    t.addEventListener("click", function () { show(Number(t.getAttribute("data-sample"))); });
  });
  var copy = document.querySelector("[data-copy-prompt]");
  if (copy) {
    copy.addEventListener("click", function () { window.pmxCopy(String(prompts[current] || ""), copy); });
  }
})();
