// "Connect from here" (web-client.md §6.2, §9.1): the node menu arms a
// connection from its node; the next click on another card creates a
// relation edge through POST /api/canvas/edge (the route agents use; the
// edge appears with the layout the server sends back), as does that
// card's menu item "Connect from "<title>"". Esc, or a click on the empty
// board, gives it up. While armed a banner says so and <html> has
// is-connect-armed (a crosshair over the cards).

import { api } from "./client.js";

let armed = null; // { id, title }
let banner = null;

export const armedConnection = () => armed;

// armConnection starts a connection from node id (replacing one armed).
export function armConnection(id, title) {
  armed = { id, title };
  document.documentElement.classList.add("is-connect-armed");
  if (!banner) {
    banner = document.createElement("div");
    banner.className = "connect-banner";
    banner.setAttribute("role", "status");
    document.body.append(banner);
  }
  banner.textContent = `Connecting from "${short(title)}": click a node to connect it, Esc to cancel`;
}

export function disarmConnection() {
  armed = null;
  document.documentElement.classList.remove("is-connect-armed");
  if (banner) { banner.remove(); banner = null; }
}

// connectTo ends the armed connection at node id.
export function connectTo(id) {
  const from = armed && armed.id;
  disarmConnection();
  if (from && from !== id) return api("POST", "/api/canvas/edge", { from, to: id, type: "relation" });
  return null;
}

// short is a title as the menu names it (at most 20 characters).
export const short = (title) => (title.length > 20 ? title.slice(0, 19) + "…" : title);

// A click on another card completes the connection; a click on the empty
// board gives it up. Capture phase, so the card does not also start a drag
// or become active.
addEventListener("pointerdown", (ev) => {
  if (!armed || ev.button !== 0) return;
  const viewport = ev.target.closest && ev.target.closest(".canvas-viewport");
  if (!viewport) return;
  const card = ev.target.closest(".canvas-node");
  if (!card) { disarmConnection(); return; }
  const id = card.dataset.nodeId;
  if (id === armed.id) return;
  ev.preventDefault();
  ev.stopPropagation();
  connectTo(id);
}, true);

// Esc gives it up (an open menu closes first: its Esc is the menu's).
addEventListener("keydown", (ev) => {
  if (armed && ev.key === "Escape" && !document.querySelector(".context-menu")) { ev.stopPropagation(); disarmConnection(); }
}, true);
