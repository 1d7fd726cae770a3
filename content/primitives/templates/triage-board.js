(function () {
  "use strict";
  var data = window.pmxData || {};
  var items = Array.isArray(data.items) ? data.items : [];
  var columns = Array.prototype.slice.call(document.querySelectorAll("[data-col]"));
  var dragged = null;
  function names() {
    return columns.map(function (c) { return c.querySelector("h2").textContent; });
  }
  function recount() {
    columns.forEach(function (c) {
      c.querySelector("[data-count]").textContent = String(c.querySelectorAll("[data-item]").length);
    });
  }
  function moveTo(card, col) {
    if (col < 0 || col >= columns.length) { return; }
    columns[col].querySelector("[data-drop]").appendChild(card);
    recount();
  }
  document.querySelectorAll("[data-item]").forEach(function (card) {
    card.addEventListener("dragstart", function (e) {
      dragged = card;
      card.classList.add("is-dragging");
      if (e.dataTransfer) { e.dataTransfer.effectAllowed = "move"; e.dataTransfer.setData("text/plain", card.getAttribute("data-item")); }
    });
    card.addEventListener("dragend", function () { card.classList.remove("is-dragging"); dragged = null; });
    card.querySelectorAll("[data-move]").forEach(function (b) {
      b.addEventListener("click", function () {
        var col = Number(card.closest("[data-col]").getAttribute("data-col"));
        moveTo(card, col + Number(b.getAttribute("data-move")));
      });
    });
  });
  document.querySelectorAll("[data-drop]").forEach(function (zone) {
    zone.addEventListener("dragover", function (e) { e.preventDefault(); zone.classList.add("is-over"); });
    zone.addEventListener("dragleave", function () { zone.classList.remove("is-over"); });
    zone.addEventListener("drop", function (e) {
      e.preventDefault();
      zone.classList.remove("is-over");
      if (dragged) { moveTo(dragged, Number(zone.getAttribute("data-drop"))); }
    });
  });
  window.pmxState = function () {
    var cols = names();
    var out = [];
    columns.forEach(function (c, ci) {
      c.querySelectorAll("[data-item]").forEach(function (card) {
        var item = JSON.parse(JSON.stringify(items[Number(card.getAttribute("data-item"))] || {}));
        item.column = cols[ci];
        out.push(item);
      });
    });
    return { columns: cols, items: out };
  };
})();
