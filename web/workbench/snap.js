// Snap guides while a card is dragged (web-client.md §5.6): the dragged
// card's left/centre/right and top/middle/bottom snap, each axis on its
// own, to the nearest of the same lines of every other board card within
// SNAP_THRESHOLD world px, and a dashed guide line is drawn along each
// line it snapped to, spanning both cards ±20 px. The guides go on drop.

export const SNAP_THRESHOLD = 8;
const svgNS = "http://www.w3.org/2000/svg";

// createSnapper takes the dragged node and the board's nodes once, at the
// start of the drag. Excluded: the dragged node, the groups it is in (the
// data.parentGroup chain), when it is a group everything inside it, and
// what skip(n) says (docked widgets).
export function createSnapper(dragged, nodes, skip = () => false) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const excluded = new Set([dragged.id]);
  // (The parentGroup chains are followed at most 32 deep: a cycle in the
  // data does not hang the drag.)
  for (let g = parentOf(dragged), i = 0; g && i < 32; g = parentOf(byId.get(g)), i++) excluded.add(g);
  if (dragged.type === "group") {
    const stack = [dragged.id];
    while (stack.length) {
      const g = byId.get(stack.pop());
      for (const c of (g && g.data && g.data.children) || []) if (!excluded.has(c)) { excluded.add(c); stack.push(c); }
    }
    for (const n of nodes) {
      for (let g = parentOf(n), i = 0; g && i < 32; g = parentOf(byId.get(g)), i++) {
        if (g === dragged.id) { excluded.add(n.id); break; }
      }
    }
  }
  const others = nodes.filter((n) => !excluded.has(n.id) && !skip(n) && n.position && n.size);
  const xs = [], ys = [];
  for (const n of others) {
    const { x, y } = n.position, { width: w, height: h } = n.size;
    for (const at of [x, x + w / 2, x + w]) xs.push({ at, n });
    for (const at of [y, y + h / 2, y + h]) ys.push({ at, n });
  }
  // snap returns where a card proposed at (x, y) of size (w, h) lands, and
  // the guides to draw ({axis: "x"|"y", at, from, to}, world px).
  const snap = (x, y, w, h) => {
    const bx = best(xs, [x, x + w / 2, x + w]), by = best(ys, [y, y + h / 2, y + h]);
    const nx = bx ? x + bx.d : x, ny = by ? y + by.d : y;
    const guides = [];
    if (bx) {
      const o = bx.line.n;
      guides.push({ axis: "x", at: bx.line.at, from: Math.min(ny, o.position.y) - 20,
        to: Math.max(ny + h, o.position.y + o.size.height) + 20 });
    }
    if (by) {
      const o = by.line.n;
      guides.push({ axis: "y", at: by.line.at, from: Math.min(nx, o.position.x) - 20,
        to: Math.max(nx + w, o.position.x + o.size.width) + 20 });
    }
    return { x: nx, y: ny, guides };
  };
  return { snap };
}

const parentOf = (n) => (n && n.data && typeof n.data.parentGroup === "string" ? n.data.parentGroup : null);

// best is the closest (line, own edge) pair within the threshold: d is
// what moves the edge onto the line.
function best(lines, edges) {
  let out = null;
  for (const line of lines) {
    for (const e of edges) {
      const d = line.at - e;
      if (Math.abs(d) <= SNAP_THRESHOLD && (!out || Math.abs(d) < Math.abs(out.d))) out = { d, line };
    }
  }
  return out;
}

// drawGuides shows the guides in the world (an <svg class="snap-guides">
// made on first use); drawGuides(world, []) takes them away.
export function drawGuides(world, guides) {
  let layer = world.querySelector(":scope > .snap-guides");
  if (!layer) {
    if (!guides.length) return;
    layer = document.createElementNS(svgNS, "svg");
    layer.setAttribute("class", "snap-guides");
    world.append(layer);
  }
  layer.replaceChildren(...guides.map((g) => {
    const l = document.createElementNS(svgNS, "line");
    const attrs = g.axis === "x" ? { x1: g.at, x2: g.at, y1: g.from, y2: g.to } : { y1: g.at, y2: g.at, x1: g.from, x2: g.to };
    for (const [k, v] of Object.entries(attrs)) l.setAttribute(k, v);
    l.setAttribute("class", "snap-guide-line");
    l.dataset.axis = g.axis;
    l.dataset.at = String(g.at);
    return l;
  }));
}
