(function () {
  "use strict";
  // Copy JSON: the data arrives as escaped JSON in #pmx-data. A kind with
  // live state (triage, config, prototype) sets window.pmxState to return
  // what to copy instead.
  function readData() {
    var el = document.getElementById("pmx-data");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  }
  window.pmxData = readData();
  function flash(btn, text) {
    var label = btn.getAttribute("data-label") || btn.textContent;
    btn.setAttribute("data-label", label);
    btn.textContent = text;
    setTimeout(function () { btn.textContent = label; }, 1400);
  }
  // The frame is sandboxed without same-origin, where the clipboard API is
  // often refused: fall back to execCommand, then to a text box to copy by hand.
  function showBox(text) {
    var box = document.createElement("div");
    box.className = "pmx-copied";
    box.setAttribute("role", "dialog");
    var hint = document.createElement("div");
    hint.textContent = "Copy this text (Ctrl+C or Cmd+C):";
    var area = document.createElement("textarea");
    area.value = text;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "pmx-btn";
    close.textContent = "Close";
    close.onclick = function () { box.remove(); };
    box.appendChild(hint);
    box.appendChild(area);
    box.appendChild(close);
    document.body.appendChild(box);
    area.focus();
    area.select();
  }
  function fallback(text, btn) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
    if (ok) { flash(btn, "Copied"); } else { showBox(text); }
  }
  window.pmxCopy = function (text, btn) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { flash(btn, "Copied"); }, function () { fallback(text, btn); });
    } else {
      fallback(text, btn);
    }
  };
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest ? ev.target.closest("[data-copy-json]") : null;
    if (!btn) { return; }
    var value = typeof window.pmxState === "function" ? window.pmxState() : window.pmxData;
    window.pmxCopy(JSON.stringify(value, null, 2), btn);
  });
})();
