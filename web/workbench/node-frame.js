// The frame renderer of html surfaces (html nodes and html primitives) and
// of the viewer's nodes (json-render, graph, mermaid): a sandboxed frame of
// the node's surface. An html surface is GET /api/canvas/surface/:id, which
// the server serves with CSP "sandbox allow-scripts" (an opaque origin: it
// can never reach the API). A viewer node's surface redirects to the viewer
// page the node names in data.url (/api/canvas/json-render/view?nodeId=…);
// the frame loads that page directly, addressed to the page's canvas (the
// redirect does not carry ?canvas=).
//
// A frame loads with the theme of its (re)load and then follows the theme
// by message, without reloading: an html surface through its theme bridge
// (with the frame's own nonce), the viewer through its {type:"pmx-theme"}
// listener. A frame reloads when what it shows changes (v=), and grows to
// its content (frame-height.js).

import { html, useRef, useMemo, useEffect } from "./ui.js";
import { apiURL, theme } from "./client.js";
import { useContentHeight } from "./frame-height.js";
import { useSurfaceAX } from "./surface-ax.js";

const HTML_SANDBOX = "allow-scripts";
const VIEWER_SANDBOX = "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox";

// djb2 is a short hash of a string (the frame's version parameter).
export function djb2(s) {
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h << 5) + h + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

const nonce = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).replace(/[^A-Za-z0-9_-]/g, "");

export const isHTMLSurface = (node) => node.type === "html";

function version(node) {
  const d = node.data || {};
  if (isHTMLSurface(node)) return djb2(String(d.html ?? d.content ?? ""));
  return djb2(JSON.stringify([d.specVersion, d.spec, d.graphConfig, d.content]));
}

// expanded (the focus overlay): the frame fills the panel, the viewer is
// asked for its expanded display, and the node does not grow to it.
export function SurfaceFrame({ node, expanded }) {
  const d = node.data || {};
  const frame = useRef(null);
  const tokens = useMemo(() => ({ theme: nonce(), frame: nonce(), ax: nonce() }), []);
  const surface = isHTMLSurface(node);
  const v = version(node);
  const current = theme.value;
  const loadTheme = useMemo(() => current, [v]);
  const post = () => {
    const w = frame.current && frame.current.contentWindow;
    if (!w) return;
    w.postMessage(surface ? { source: "pmx-canvas-theme", token: tokens.theme, theme: theme.peek() }
      : { type: "pmx-theme", theme: theme.peek() }, "*");
  };
  useEffect(post, [current]);
  // The AX bridge (surface-ax.js): the server turns it on in the document
  // only for a node whose AX capabilities allow something.
  useSurfaceAX(frame, node.id, tokens.ax, surface);
  // It grows to its content: an html surface names its frame nonce, the
  // viewer its node.
  useContentHeight(frame, node, (m) => !expanded && (surface ? m.frameToken === tokens.frame : m.nodeId === node.id));
  if (surface && !String(d.html ?? d.content ?? "").trim()) return html`<div class="node-empty">No HTML content set</div>`;
  const q = new URLSearchParams({ theme: loadTheme, v });
  if (surface) { q.set("themeToken", tokens.theme); q.set("frameToken", tokens.frame); q.set("axToken", tokens.ax); }
  const viewer = !surface && typeof d.url === "string" && d.url.startsWith("/api/") ? d.url : null;
  if (viewer && expanded) q.set("display", "expanded");
  const src = apiURL(viewer ? `${viewer}${viewer.includes("?") ? "&" : "?"}${q}` : `/api/canvas/surface/${encodeURIComponent(node.id)}?${q}`);
  return html`<iframe ref=${frame} class=${surface ? "surface-frame html-node-frame" : "surface-frame mcp-app-frame"}
    src=${src} title=${String(d.title || node.type)} sandbox=${surface ? HTML_SANDBOX : VIEWER_SANDBOX}
    loading="lazy" onLoad=${post}></iframe>`;
}
