(function () {
  "use strict";
  // One slide at a time. Keys come from the keyboard, or, in the canvas's
  // presentation mode, as presentation-key messages from the parent frame.
  var slides = Array.prototype.slice.call(document.querySelectorAll("[data-slide]"));
  var dots = Array.prototype.slice.call(document.querySelectorAll("[data-dot]"));
  var counter = document.querySelector("[data-current]");
  var bar = document.querySelector("[data-progress]");
  var params = new URLSearchParams(window.location.search);
  var presenting = params.get("present") === "1";
  var token = params.get("presentToken") || "";
  var current = 0;
  if (presenting) { document.documentElement.classList.add("is-presenting"); }
  var deck = document.querySelector(".deck");
  function show(n) {
    if (!slides.length) { return; }
    if (n !== current && deck) { deck.classList.add("has-moved"); }
    current = Math.max(0, Math.min(slides.length - 1, n));
    slides.forEach(function (s, i) {
      s.classList.toggle("is-active", i === current);
      if (i === current) { s.removeAttribute("aria-hidden"); } else { s.setAttribute("aria-hidden", "true"); }
    });
    dots.forEach(function (d, i) { d.classList.toggle("is-active", i === current); });
    if (counter) { counter.textContent = String(current + 1); }
    if (bar) { bar.style.width = ((current + 1) * 100 / slides.length) + "%"; }
  }
  function handle(key) {
    switch (key) {
      case "ArrowRight": case "ArrowDown": case "PageDown": case " ": case "Spacebar":
        show(current + 1); return true;
      case "ArrowLeft": case "ArrowUp": case "PageUp": case "Backspace":
        show(current - 1); return true;
      case "Home": show(0); return true;
      case "End": show(slides.length - 1); return true;
      case "n": case "N": document.body.classList.toggle("show-notes"); return true;
      case "Escape":
        if (presenting && window.parent !== window) {
          window.parent.postMessage({ source: "pmx-canvas-html-node", type: "presentation-exit", token: token }, "*");
          return true;
        }
    }
    return false;
  }
  document.addEventListener("keydown", function (e) {
    // Synthetic events are ignored: a bridge that forwards keys as events
    // also sends the message below, and one key must move one slide.
    if (!e.isTrusted || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var tag = e.target && e.target.tagName;
    if ((e.key === " " || e.key === "Enter") && tag === "BUTTON") { return; }
    if (handle(e.key)) { e.preventDefault(); }
  });
  window.addEventListener("message", function (e) {
    var d = e.data;
    if (e.source !== window.parent || !d || d.source !== "pmx-canvas-html-node" || d.type !== "presentation-key") { return; }
    if (token && d.token !== token) { return; }
    if (typeof d.key === "string") { handle(d.key); }
  });
  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () { show(current + Number(b.getAttribute("data-go"))); });
  });
  dots.forEach(function (d) {
    d.addEventListener("click", function () { show(Number(d.getAttribute("data-dot"))); });
  });
  show(0);
})();
