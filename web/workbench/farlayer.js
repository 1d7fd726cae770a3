// The far layer: zoomed far out on a large board, where a card's text
// would be a pixel high, the cards are drawn as boxes on one canvas under
// the world instead of as DOM cards (thousands of them would make every
// frame slow). The cards the human works on (active, selected) keep their
// DOM card above it.

const GROUP_ALPHA = 0.12;

// createFarLayer puts the canvas first in viewportEl. wb: {nodes() — the
// board nodes; view(); skip(id) — drawn as a DOM card instead}.
export function createFarLayer(viewportEl, wb) {
  const canvas = document.createElement("canvas");
  canvas.className = "far-layer";
  canvas.hidden = true;
  canvas.setAttribute("aria-hidden", "true");
  viewportEl.prepend(canvas);
  let frame = 0;

  const paint = () => {
    frame = 0;
    const w = viewportEl.clientWidth, h = viewportEl.clientHeight, dpr = devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const v = wb.view(), k = v.scale * dpr;
    ctx.setTransform(k, 0, 0, k, v.x * dpr, v.y * dpr);
    const x0 = -v.x / v.scale, y0 = -v.y / v.scale, x1 = x0 + w / v.scale, y1 = y0 + h / v.scale;
    const css = getComputedStyle(document.documentElement);
    const panel = css.getPropertyValue("--c-panel").trim() || "#222";
    const line = css.getPropertyValue("--c-line").trim() || "#555";
    const accent = css.getPropertyValue("--c-accent").trim() || "#4bbcff";
    ctx.lineWidth = 1 / v.scale;
    for (const n of wb.nodes()) {
      const { x, y } = n.position, { width, height } = n.size;
      if (x > x1 || y > y1 || x + width < x0 || y + height < y0 || wb.skip(n.id)) continue;
      if (n.type === "group") {
        const color = (n.data && typeof n.data.color === "string" && n.data.color) || accent;
        ctx.globalAlpha = GROUP_ALPHA;
        ctx.fillStyle = color;
        ctx.fillRect(x, y, width, height);
        ctx.globalAlpha = 1;
        ctx.strokeStyle = color;
        ctx.strokeRect(x, y, width, height);
        continue;
      }
      ctx.fillStyle = panel;
      ctx.fillRect(x, y, width, n.collapsed ? 36 : height);
      ctx.strokeStyle = line;
      ctx.strokeRect(x, y, width, n.collapsed ? 36 : height);
    }
  };

  return {
    // draw shows the layer and paints it on the next frame.
    draw() {
      canvas.hidden = false;
      if (!frame) frame = requestAnimationFrame(paint);
    },
    hide() {
      canvas.hidden = true;
      if (frame) { cancelAnimationFrame(frame); frame = 0; }
    },
  };
}
