// The node menu's type-specific items (web-client.md §9.1): what can be
// done with the thing a card shows. A note, file or image read from a path:
// open it in the browser (the server's /artifact page), copy the path,
// and for a file or image re-read it (POST /api/canvas/node/:id/refresh,
// which also re-reads an image's file). A webpage: refresh it, open it,
// copy its address. Apps, json-render and graphs with an address: open
// it. Each item is {label, run} for menu.js.

import { api, apiURL, nodePath } from "./client.js";

// openTab opens url in a new tab (without giving it this page).
const openTab = (url) => window.open(url, "_blank", "noopener,noreferrer");

// copyText puts text on the clipboard; a refusal is logged, not thrown.
export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); } catch (err) { console.warn("copy failed:", err.message); }
}

const httpURL = (u) => (typeof u === "string" && /^https?:\/\//i.test(u) ? u : "");
// sameOriginURL: an address on this server (a viewer page, an artifact).
const sameOriginURL = (u) => (typeof u === "string" && u.startsWith("/") && !u.startsWith("//") ? u : "");

export function typeMenuItems(n) {
  const d = n.data || {};
  const items = [];
  const path = typeof d.path === "string" ? d.path : "";
  if (path && (n.type === "markdown" || n.type === "file" || n.type === "image")) {
    items.push({ label: "Open in browser", run: () => openTab(apiURL("/artifact?path=" + encodeURIComponent(path))) },
      { label: "Copy path", run: () => copyText(path) });
  }
  if (n.type === "file" || (n.type === "image" && path)) {
    items.push({ label: n.type === "file" ? "Refresh file" : "Refresh image",
      run: () => api("POST", nodePath(n.id, "/refresh"), {}) });
  }
  if (n.type === "webpage") {
    const url = httpURL(d.url);
    items.push({ label: "Refresh webpage", run: () => api("POST", nodePath(n.id, "/refresh"), {}) });
    if (url) items.push({ label: "Open in browser", run: () => openTab(url) }, { label: "Copy URL", run: () => copyText(url) });
  }
  if (n.type === "mcp-app" || n.type === "json-render" || n.type === "graph") {
    const url = httpURL(d.url) || sameOriginURL(d.url);
    if (url) items.push({ label: "Open in browser", run: () => openTab(url) });
    const spec = n.type === "json-render" ? d.spec : n.type === "graph" ? d.graphConfig : null;
    if (spec) items.push({ label: "Copy spec", run: () => copyText(JSON.stringify(spec, null, 2)) });
  }
  return items;
}
