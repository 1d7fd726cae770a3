// The image renderer: the image on a checkerboard, zoomed by the wheel
// inside it (0.25–10×, the board does not zoom) and panned by dragging
// when zoomed; a footer with the caption, the natural size and the zoom
// with a reset; warnings the agent attached (web-client.md §5.10 image).

import { html, useState, useRef } from "./ui.js";
import { Icon } from "./icons.js";
import { apiURL } from "./client.js";

const MIN_ZOOM = 0.25, MAX_ZOOM = 10;

export function imageSrc(node) {
  const src = String((node.data && (node.data.src || node.data.content)) || "");
  if (/^(https?:|data:image\/)/.test(src)) return src;
  return apiURL("/api/canvas/image/" + encodeURIComponent(node.id));
}

function warnings(d) {
  const out = [];
  const add = (w) => {
    if (!w) return;
    if (typeof w === "string") out.push({ detail: w });
    else if (typeof w === "object" && w.detail) out.push({ title: w.title, detail: String(w.detail) });
  };
  add(d.warning);
  if (Array.isArray(d.warnings)) d.warnings.forEach(add);
  if (d.validationStatus === "failed" || d.validationStatus === "invalid") {
    out.push({ title: "Validation " + d.validationStatus, detail: String(d.validationMessage || "The agent marked this image as not valid.") });
  }
  return out;
}

export function ImageBody({ node }) {
  const d = node.data || {};
  const [view, setView] = useState({ zoom: 1, x: 0, y: 0 });
  const [size, setSize] = useState(null);
  const [failedSrc, setFailedSrc] = useState(null); // the address that did not load
  const drag = useRef(null);
  const src = imageSrc(node);
  const caption = String(d.caption || d.alt || "");
  const failed = failedSrc === src;

  const onWheel = (e) => {
    e.preventDefault();
    e.stopPropagation(); // the board does not zoom
    setView((v) => {
      const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.zoom * (1 - e.deltaY * 0.002)));
      return zoom === 1 ? { zoom, x: 0, y: 0 } : { ...v, zoom };
    });
  };
  const onPointerDown = (e) => {
    if (view.zoom === 1 || e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { sx: e.clientX, sy: e.clientY, x: view.x, y: view.y };
  };
  const onPointerMove = (e) => {
    const g = drag.current;
    if (g) setView((v) => ({ ...v, x: g.x + e.clientX - g.sx, y: g.y + e.clientY - g.sy }));
  };
  const onPointerUp = () => { drag.current = null; };

  return html`<div class="image-node">
    ${warnings(d).map((w) => html`<div class="node-banner warn"><${Icon} name="warning" />
      ${w.title ? html`<strong>${w.title}</strong> ` : null}${w.detail}</div>`)}
    <div class=${"image-stage" + (view.zoom !== 1 ? " zoomed" : "")} onWheel=${onWheel} onPointerDown=${onPointerDown}
      onPointerMove=${onPointerMove} onPointerUp=${onPointerUp} onPointerCancel=${onPointerUp}>
      ${failed ? html`<div class="node-empty">Failed to load image</div>` : html`<img src=${src} alt=${caption || String(d.title || "image")}
        draggable="false" style=${{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` }}
        onLoad=${(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
        onError=${() => setFailedSrc(src)} />`}
    </div>
    <div class="image-footer">
      <span class="image-caption">${caption}</span>
      ${size ? html`<span class="image-size">${size.w}×${size.h}</span>` : null}
      ${view.zoom !== 1 ? html`<button type="button" class="image-zoom-reset" title="Reset zoom" aria-label="Reset zoom"
        onClick=${(e) => { e.stopPropagation(); setView({ zoom: 1, x: 0, y: 0 }); }}>${Math.round(view.zoom * 100)}% <${Icon} name="reset" /></button>` : null}
    </div>
  </div>`;
}
