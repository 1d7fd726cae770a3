// A node's standalone surface (web-client.md §5.2 ↗, §13) and the
// presentation mode of decks (§13.2).
//
// siteURL says whether a node can be opened as a site and where:
// GET /api/canvas/surface/:id answers an html node's document and
// redirects the others to their viewer, page or app. openSite opens it in a
// new tab with the board's theme.
//
// openPresentation shows an html node with data.presentation over the
// whole window: its surface loaded with present=1 and a fresh
// presentToken (the deck takes keys only with it). Esc exits; the slide
// keys pressed on the page are forwarded to the deck as presentation-key
// messages (keys pressed inside the deck reach it directly); Tab goes to
// the "Exit presentation" button, which is invisible until focused; the
// deck can exit by posting presentation-exit with the token.

import { apiURL, theme } from "./client.js";

const SLIDE_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", " ", "Home", "End", "n", "N"]);

export function siteURL(n) {
  const url = `?theme=${encodeURIComponent(theme.peek())}`;
  // The server says which nodes have one (surfaceUrl); a node from an
  // older event without the field is judged by the same rule here.
  if ("surfaceUrl" in n) return typeof n.surfaceUrl === "string" && n.surfaceUrl ? apiURL(n.surfaceUrl + url) : "";
  const d = n.data || {};
  const has = (v) => typeof v === "string" && v.trim() !== "";
  let ok = false;
  switch (n.type) {
    case "html": ok = has(d.html) || has(d.content); break;
    case "json-render": case "graph": case "mermaid": ok = true; break;
    case "mcp-app": ok = (d.viewerType === "web-artifact" ? has(d.path) : d.mode === "ext-app" && has(d.html)) || has(d.url); break;
    case "webpage": ok = has(d.url); break;
  }
  return ok ? apiURL(`/api/canvas/surface/${encodeURIComponent(n.id)}${url}`) : "";
}

export function openSite(n) {
  const url = siteURL(n);
  if (url) window.open(url, "_blank", "noopener");
}

export const isPresentation = (n) => n.type === "html" && n.data?.presentation === true;

const nonce = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).replace(/[^A-Za-z0-9_-]/g, "");

let open = null; // {root, frame, token, back}

export const presenting = () => open !== null;

export function openPresentation(n) {
  if (!isPresentation(n)) return;
  closePresentation();
  const token = nonce();
  const title = String(n.data?.title || "Presentation");
  const root = document.createElement("div");
  root.className = "html-presentation";
  root.setAttribute("role", "dialog");
  root.setAttribute("aria-modal", "true");
  root.setAttribute("aria-label", "Present " + title);
  root.tabIndex = -1;
  const stage = document.createElement("div");
  stage.className = "html-presentation-stage";
  const frame = document.createElement("iframe");
  frame.className = "html-presentation-frame";
  frame.title = title;
  frame.setAttribute("sandbox", "allow-scripts");
  const q = new URLSearchParams({ theme: theme.peek(), present: "1", presentToken: token, themeToken: token });
  frame.src = apiURL(`/api/canvas/surface/${encodeURIComponent(n.id)}?${q}`);
  frame.addEventListener("load", () => frame.contentWindow?.postMessage({ source: "pmx-canvas-present", token, present: true }, "*"));
  const exit = document.createElement("button");
  exit.type = "button";
  exit.className = "html-presentation-exit";
  exit.textContent = "Exit presentation";
  exit.addEventListener("click", closePresentation);
  stage.append(frame);
  root.append(stage, exit);
  document.body.append(root);
  open = { root, frame, token, back: document.activeElement };
  root.focus();
}

export function closePresentation() {
  if (!open) return;
  const { root, back } = open;
  open = null;
  root.remove();
  if (back && back.isConnected && typeof back.focus === "function") back.focus();
}

// Keys go to the presentation before anything else on the page (capture).
addEventListener("keydown", (e) => {
  if (!open) return;
  if (e.key === "Escape") { e.preventDefault(); e.stopImmediatePropagation(); closePresentation(); return; }
  if (e.key === "Tab") { e.preventDefault(); e.stopImmediatePropagation(); open.root.querySelector(".html-presentation-exit").focus(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (SLIDE_KEYS.has(e.key)) {
    if (e.key === " " && document.activeElement?.tagName === "BUTTON") return; // Space presses the exit button
    e.preventDefault();
    e.stopImmediatePropagation();
    open.frame.contentWindow?.postMessage({ source: "pmx-canvas-html-node", type: "presentation-key", key: e.key, token: open.token }, "*");
  } else {
    e.stopImmediatePropagation(); // the board's keys are not for it
  }
}, true);

addEventListener("message", (e) => {
  const d = e.data;
  if (!open || e.source !== open.frame.contentWindow || !d || typeof d !== "object") return;
  if (d.source === "pmx-canvas-html-node" && d.type === "presentation-exit" && d.token === open.token) closePresentation();
});
