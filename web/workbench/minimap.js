// The minimap (web-client.md §3.3): the whole board and the current view
// in 180×120 px; pointer down or drag on it centres the view there.

import { center, nodeBounds } from "./geometry.js";

const TYPE_COLORS = {
  markdown: "--c-accent", prompt: "--c-accent", file: "--c-accent",
  "mcp-app": "--c-ok", "json-render": "--c-ok", response: "--c-ok", image: "--c-ok",
  webpage: "--c-warn", status: "--c-warn", html: "--c-warn",
  graph: "--c-purple", trace: "--c-purple", context: "--c-muted", ledger: "--c-dim", group: "--c-dim",
};

// createMinimap returns {draw(), invalidate(), toggle()}. wb: {nodes(), edges(), view(),
// viewportSize(), centreOn(x, y)}.
export function createMinimap(wb) {
  const canvas = document.createElement("canvas");
  canvas.className = "minimap";
  canvas.width = 180;
  canvas.height = 120;
  canvas.setAttribute("aria-label", "Minimap");
  document.body.append(canvas);
  let frame = 0, map = null;

  let nodesBox = null; // the nodes' box, measured again when they changed
  const bounds = () => {
    const v = wb.view(), size = wb.viewportSize();
    if (dirty || nodesBox === null) nodesBox = nodeBounds(wb.nodes()) || false;
    const view = { x: -v.x / v.scale, y: -v.y / v.scale, w: size.w / v.scale, h: size.h / v.scale };
    const b = nodesBox;
    let { minX, minY, maxX, maxY } = b ? nodeBounds([], [view, { x: b.minX, y: b.minY, w: b.maxX - b.minX, h: b.maxY - b.minY }])
      : { minX: 0, minY: 0, maxX: 1000, maxY: 800 };
    minX -= 20; minY -= 20; maxX += 20; maxY += 20;
    const s = Math.min(canvas.width / (maxX - minX), canvas.height / (maxY - minY));
    return { minX, minY, s };
  };

  // The board is drawn once into an offscreen canvas and again only when
  // it changed (invalidate) or its box moved; a view change draws that
  // image and the view's rectangle, so panning a large board does not
  // redraw every node each frame.
  const board = document.createElement("canvas");
  board.width = canvas.width;
  board.height = canvas.height;
  let drawn = "";
  let dirty = true;

  const paint = () => {
    frame = 0;
    const ctx = canvas.getContext("2d"), css = getComputedStyle(document.documentElement);
    const colors = new Map();
    const color = (name) => {
      if (!colors.has(name)) colors.set(name, css.getPropertyValue(name).trim() || "#888");
      return colors.get(name);
    };
    map = bounds();
    const key = [map.minX, map.minY, map.s, document.documentElement.dataset.theme].join();
    if (dirty || key !== drawn) {
      paintBoard(board.getContext("2d"), color);
      dirty = false;
      drawn = key;
    }
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(board, 0, 0);
    const { minX, minY, s } = map;
    const X = (x) => (x - minX) * s, Y = (y) => (y - minY) * s;
    const v = wb.view(), size = wb.viewportSize();
    ctx.strokeStyle = color("--c-accent");
    ctx.lineWidth = 1.5;
    ctx.strokeRect(X(-v.x / v.scale), Y(-v.y / v.scale), size.w / v.scale * s, size.h / v.scale * s);
  };

  const paintBoard = (ctx, color) => {
    const { minX, minY, s } = map;
    const X = (x) => (x - minX) * s, Y = (y) => (y - minY) * s;
    ctx.clearRect(0, 0, board.width, board.height);
    const byId = new Map(wb.nodes().map((n) => [n.id, n]));
    ctx.globalAlpha = 0.3;
    ctx.lineWidth = 0.5;
    for (const e of wb.edges()) {
      const a = byId.get(e.from), b = byId.get(e.to);
      if (!a || !b) continue;
      ctx.strokeStyle = color("--c-muted");
      ctx.beginPath();
      const p = center(a), q = center(b);
      ctx.moveTo(X(p.x), Y(p.y));
      ctx.lineTo(X(q.x), Y(q.y));
      ctx.stroke();
    }
    ctx.globalAlpha = 0.6;
    for (const n of wb.nodes()) {
      ctx.fillStyle = color(TYPE_COLORS[n.type] || "--c-dim");
      ctx.fillRect(X(n.position.x), Y(n.position.y), Math.max(4, n.size.width * s), Math.max(3, n.size.height * s));
    }
    ctx.globalAlpha = 1;
  };

  const navigate = (e) => {
    if (!map) return;
    const r = canvas.getBoundingClientRect();
    wb.centreOn((e.clientX - r.left) / map.s + map.minX, (e.clientY - r.top) / map.s + map.minY);
  };
  canvas.addEventListener("pointerdown", (e) => {
    e.stopPropagation();
    canvas.setPointerCapture(e.pointerId);
    navigate(e);
    const move = (ev) => navigate(ev);
    canvas.addEventListener("pointermove", move);
    canvas.addEventListener("pointerup", () => canvas.removeEventListener("pointermove", move), { once: true });
  });

  return {
    draw() { if (!frame && !canvas.hidden) frame = requestAnimationFrame(paint); },
    // invalidate: the nodes or edges changed; the next draw redraws them.
    invalidate() { dirty = true; this.draw(); },
    toggle() { canvas.hidden = !canvas.hidden; if (!canvas.hidden) this.draw(); return !canvas.hidden; },
  };
}
