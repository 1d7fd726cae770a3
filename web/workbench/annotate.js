// Human ink (web-client.md §16): three exclusive tools — pen, eraser and
// text. While one is on, a capture layer covers the board (no pan, zoom or
// menus); new ink reaches the board only with the next layout broadcast.

import { icon } from "./icons.js";

const TOOLS = {
  pen: { on: "Annotate canvas", off: "Stop annotating", glyph: "pen" },
  eraser: { on: "Erase annotations", off: "Stop erasing", glyph: "eraser" },
  text: { on: "Text annotations", off: "Stop text annotations", glyph: "T" },
};

// setupAnnotations adds the tool buttons to bar. wb: {viewportEl, draft
// (an SVG element in the world for the live stroke), toWorld(x,y),
// scale(), annotations(), api(method, path, body)}.
export function setupAnnotations(bar, wb) {
  let tool = null;
  const buttons = {};
  const layer = document.createElement("div");
  layer.className = "annotation-capture-layer";
  layer.hidden = true;
  wb.viewportEl.append(layer);

  for (const [name, t] of Object.entries(TOOLS)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "annotation-tool";
    b.append(t.glyph.length > 1 ? icon(t.glyph) : t.glyph);
    b.addEventListener("click", () => set(tool === name ? null : name));
    bar.append(b);
    buttons[name] = b;
  }
  const label = () => {
    for (const [name, b] of Object.entries(buttons)) {
      const active = tool === name;
      const text = active ? TOOLS[name].off : TOOLS[name].on;
      b.setAttribute("aria-label", text);
      b.title = text;
      b.setAttribute("aria-pressed", String(active));
      b.classList.toggle("active", active);
    }
  };
  const set = (next) => {
    tool = next;
    layer.hidden = !tool;
    layer.dataset.tool = tool || "";
    wb.draft.replaceChildren();
    layer.querySelector("input")?.remove();
    label();
  };
  label();
  addEventListener("keydown", (e) => { if (e.key === "Escape" && tool) set(null); });

  layer.addEventListener("wheel", (e) => { e.preventDefault(); e.stopPropagation(); }, { passive: false });
  layer.addEventListener("contextmenu", (e) => { e.preventDefault(); e.stopPropagation(); });
  layer.addEventListener("dblclick", (e) => e.stopPropagation());
  layer.addEventListener("pointerdown", (e) => {
    e.stopPropagation();
    if (e.button !== 0) return;
    // No text selection or native drag may start under the tool (Chrome
    // would cancel the stroke's pointer).
    e.preventDefault();
    getSelection()?.removeAllRanges();
    const p = wb.toWorld(e.clientX, e.clientY);
    if (tool === "pen") pen(e, p);
    else if (tool === "eraser") erase(p);
    else if (tool === "text") text(e, p);
  });

  function pen(e, start) {
    const points = [start];
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("class", "annotation-draft");
    wb.draft.replaceChildren(path);
    layer.setPointerCapture(e.pointerId);
    const move = (ev) => {
      const p = wb.toWorld(ev.clientX, ev.clientY), last = points[points.length - 1];
      if (Math.hypot(p.x - last.x, p.y - last.y) < 2) return;
      points.push({ x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 });
      path.setAttribute("d", points.map((q, i) => `${i ? "L" : "M"}${q.x} ${q.y}`).join(" "));
    };
    const up = () => {
      layer.removeEventListener("pointermove", move);
      wb.draft.replaceChildren();
      if (points.length >= 2) wb.api("POST", "/api/canvas/annotation", { points, color: "currentColor", width: 4 });
    };
    layer.addEventListener("pointermove", move);
    layer.addEventListener("pointerup", up, { once: true });
  }

  function erase(p) {
    const pad = 14 / wb.scale();
    const hit = [...wb.annotations()].reverse().find((a) => hits(a, p, pad));
    if (hit) wb.api("DELETE", "/api/canvas/annotation/" + encodeURIComponent(hit.id));
  }

  function text(e, p) {
    layer.querySelector("input")?.remove();
    const input = document.createElement("input");
    input.className = "annotation-text-input";
    const r = wb.viewportEl.getBoundingClientRect();
    input.style.left = e.clientX - r.left + "px";
    input.style.top = e.clientY - r.top - 24 * wb.scale() + "px";
    input.style.fontSize = 24 * wb.scale() + "px";
    layer.append(input);
    setTimeout(() => input.focus());
    let done = false;
    const commit = (save) => {
      if (done) return;
      done = true;
      const value = input.value.trim();
      input.remove();
      if (save && value) wb.api("POST", "/api/canvas/annotation", { type: "text", points: [p], color: "currentColor", width: 24, text: value });
    };
    input.addEventListener("pointerdown", (ev) => ev.stopPropagation());
    input.addEventListener("keydown", (ev) => {
      ev.stopPropagation();
      if (ev.key === "Enter") commit(true);
      if (ev.key === "Escape") commit(false);
    });
    input.addEventListener("blur", () => commit(true));
  }
}

// hits reports whether world point p touches annotation a: text anywhere in
// its bounds, strokes within pad + width of a segment.
export function hits(a, p, pad) {
  const b = a.bounds;
  if (a.type === "text") {
    return b && p.x >= b.x - pad && p.x <= b.x + b.width + pad && p.y >= b.y - pad && p.y <= b.y + b.height + pad;
  }
  const pts = a.points || [], reach = pad + (a.width || 4);
  for (let i = 1; i < pts.length; i++) {
    if (segmentDistance(p, pts[i - 1], pts[i]) <= reach) return true;
  }
  return false;
}

function segmentDistance(p, a, b) {
  const dx = b.x - a.x, dy = b.y - a.y, len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}
