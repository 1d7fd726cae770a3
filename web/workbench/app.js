// The PMX Canvas workbench: the board the human watches and steers. State
// arrives on the canvas's event stream (a full layout after every change);
// the human's edits go to the same HTTP routes agents use, and come back as
// the next layout. Pan and zoom are local until committed.

import { showMenu, closeMenu } from "./menu.js";
import { openPalette, closePalette, paletteOpen } from "./palette.js";
import { setupAnnotations } from "./annotate.js";
import { toggleSnapshots } from "./snapshots.js";
import { createMinimap } from "./minimap.js";
import { center, nodeBounds } from "./geometry.js";
import { icon, iconHTML, hasIcon } from "./icons.js";
import { api, theme } from "./client.js";
import { mountBody, unmountBody } from "./renderers.js";
import { isExtApp } from "./node-app.js";
import { traceStatus } from "./node-trace.js";
import { mountTrace, traceState, traceReset, traceCounts } from "./trace.js";
import { promptActions } from "./node-prompt.js";
import { DockedStatus } from "./node-status.js";
import { mountAX } from "./axpanel.js";
import { html, render as draw } from "./ui.js";
import { openSync } from "./sync.js";
import { setupOverlay, openOverlay, overlayUpdate, overlayRefresh, overlayOpen } from "./overlay.js";
import { setupDrop } from "./drop.js";
import { presenting, siteURL, openSite } from "./present.js";
import { createCuller, CULL_MIN } from "./cull.js";
import { createFarLayer } from "./farlayer.js";
import { createSnapper, drawGuides } from "./snap.js";
import { walk, ARROWS } from "./graphwalk.js";
import { armConnection, armedConnection, connectTo, short } from "./connect.js";
import { typeMenuItems } from "./node-menu-items.js";
import { wheelZooms, chromeScale } from "./interact.js";
import { setupAttention } from "./attention.js";

const MIN_SCALE = 0.1, MAX_SCALE = 4;
const MIN_W = 200, MIN_H = 100;

// TYPE_LABELS: the title-bar badge of each node type.
const TYPE_LABELS = { markdown: "MD", "mcp-app": "APP", webpage: "WEB", "json-render": "UI", graph: "GRAPH",
  prompt: "ASK", response: "ANS", status: "STATUS", context: "CONTEXT", ledger: "LOG", trace: "TRACE",
  file: "FILE", image: "IMG", html: "HTML", group: "GROUP", diff: "DIFF", mermaid: "MERMAID" };

const S = {
  nodes: new Map(),     // id -> node, as the last layout had it (plus local moves)
  edges: new Map(),   // id -> edge
  annotations: [],
  pins: new Set(),      // context pins
  view: { x: 0, y: 0, scale: 1 },
  sessionId: "",
  status: "connecting", // connecting | syncing | connected | reconnecting
  synced: false,        // this connection has had its first layout
  loadedOnce: false,    // the page has had a first layout (a reconnect does not refit)
  fitPending: false,    // the first-load fit waits for the viewport to have a size
  theme: "dark",
  maxZ: 0,
  raised: new Map(),    // id -> client-only zIndex (bring to front)
  active: null,         // the node last clicked or focused
  highlight: null,      // palette matches (Set of ids) while a query is typed
  selected: new Set(),  // multi-selection (Shift+click, lasso)
  committed: null,      // the view this page committed last, until its echo comes back
};

// ---- the page shell ----

const app = document.getElementById("app");
app.innerHTML = `
  <div class="hud-layer">
    <div class="hud-left"></div>
    <div class="toolbar-group">
      <div class="canvas-toolbar nav-bar" role="toolbar" aria-label="Canvas navigation">
        <span class="toolbar-logo" title="PMX Canvas">${iconHTML("logo")}</span>
        <span class="status-dot" role="status"></span>
        <span class="session-id hud-collapsible-text">…</span>
        <button type="button" data-action="fit" aria-label="Fit canvas" title="Fit canvas">${iconHTML("fit")}</button>
        <button type="button" data-action="reset" aria-label="Reset view" title="Reset view">${iconHTML("reset")}</button>
        <button type="button" data-action="zoom-in" aria-label="Zoom in" title="Zoom in">${iconHTML("plus")}</button>
        <button type="button" data-action="zoom-out" aria-label="Zoom out" title="Zoom out">${iconHTML("minus")}</button>
        <span class="zoom-level hud-collapsible-text">100%</span>
        <button type="button" data-action="arrange" aria-label="Arrange layout" title="Arrange layout">${iconHTML("arrange")}</button>
        <button type="button" data-action="undo" aria-label="Undo" title="Undo">${iconHTML("undo")}</button>
        <button type="button" data-action="redo" aria-label="Redo" title="Redo">${iconHTML("redo")}</button>
        <button type="button" data-action="minimap" class="minimap-toggle active" aria-label="Hide minimap" title="Hide minimap">${iconHTML("minimap")}</button>
        <button type="button" data-action="theme" class="theme-toggle"></button>
        <button type="button" data-action="snapshots" aria-label="Snapshots" title="Snapshots">${iconHTML("snapshots")}</button>
      </div>
      <div class="canvas-toolbar action-bar" role="toolbar" aria-label="Canvas actions">
        <span class="annotation-tools"></span>
        <button type="button" data-action="palette" aria-label="Search nodes and actions" title="Search nodes and actions (Ctrl+K)">${iconHTML("search")}</button>
        <button type="button" data-action="shortcuts" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">${iconHTML("keyboard")}</button>
        <span class="counts hud-collapsible-text">Syncing canvas…</span>
      </div>
    </div>
    <div class="hud-right"></div>
  </div>
  <div class="canvas-viewport" tabindex="0">
    <div class="world">
      <svg class="edge-layer" aria-label="Canvas connections"></svg>
      <svg class="connect-preview"></svg>
      <div class="nodes"></div>
      <svg class="annotation-layer"></svg>
      <svg class="annotation-draft-layer"></svg>
    </div>
    <div class="lasso-rect" hidden></div>
  </div>
  <div class="selection-bar" hidden>${iconHTML("spark")}<span class="selection-text"></span>
    <button type="button" data-sel="pin">Pin as context</button>
    <button type="button" data-sel="group">Group</button>
    <button type="button" data-sel="connect">Connect</button>
    <button type="button" data-sel="clear" title="Clear selection" aria-label="Clear selection">×</button></div>
  <div class="context-pin-bar" hidden>${iconHTML("spark")}<span class="context-pin-text"></span>
    <button type="button" class="context-pin-clear" title="Clear all context pins">×</button></div>
  <div class="welcome-card" hidden>
    <div class="welcome-glyph">${iconHTML("diamond")}</div>
    <strong>Shape What The Agent Sees</strong>
    <p>Arrange notes, files and evidence on the board; pin what matters.
    Agents read what you pin and focus.</p>
    <ul>
      <li><kbd>Double-click</kbd> Create a note</li>
      <li><kbd>${iconHTML("spark")}</kbd> Pin important nodes</li>
      <li><kbd>Move nearby</kbd> Shape the focus field</li>
    </ul>
  </div>`;

const $ = (sel) => app.querySelector(sel);
mountAX($(".action-bar")); // the AX panel: its button, panel, toasts, tab-title count
mountTrace($(".action-bar"), () => { if (S.status === "connected") renderCounts(); }); // trace toggle and clear
const viewportEl = $(".canvas-viewport");
const world = $(".world");
const layer = $(".nodes");
const elements = new Map(); // id -> the node's DOM element (culled cards have none)
const dockedIds = new Set(); // the nodes docked beside the toolbar
// The focus field, change toasts and pulses (attention.js).
setupAttention({ world, root: document.body, element: (id) => elements.get(id) });

// ---- the event stream ----

// The stream sends the whole layout once per connection, then one change
// per commit (sync.js); each is applied to the keyed state and only the
// cards, edges and docked widgets it names are redrawn.
const streamHandlers = {
  status: setStatus,
  "trace-state": traceState,
  connected: (d) => {
    S.sessionId = d.sessionId || "";
    if (!d.resumed) traceReset();
    if (d.theme) applyTheme(d.theme);
  },
  layout: (layout) => {
    S.nodes = new Map((layout.nodes || []).map((n) => [n.id, n]));
    setEdges(layout.edges || []);
    S.annotations = layout.annotations || [];
    S.pins = new Set([...S.pins].filter((id) => S.nodes.has(id)));
    if (S.active && !S.nodes.has(S.active)) S.active = null;
    if (!S.synced) {
      // Only the first layout of a connection moves the view. A canvas
      // whose viewport was never set opens fitted to its content (locally:
      // nothing is saved, so other viewers keep their view).
      cancelAnimation(); // the view is replaced
      S.view = { ...(layout.viewport || S.view) };
      if (!S.loadedOnce && !savedViewport(layout.viewport)) initialFit();
      S.loadedOnce = true;
      S.synced = true;
      document.getElementById("canvasBootstrap").classList.add("ready");
    }
    if (layout.theme) applyTheme(layout.theme);
    // A layout change does not move the view: a zoom or fit animating now
    // goes on and commits its viewport (cancelling it here lost the zoom).
    render();
  },
  changes: applyChanges,
  "canvas-viewport-update": (d) => {
    if (!d.viewport) return;
    // The echo of this page's own commit changes nothing, and must not
    // cancel a move begun since (the next arrow key's, a wheel's) nor
    // put the view back to where it was committed.
    const c = S.committed, v = d.viewport;
    if (c && c.x === v.x && c.y === v.y && c.scale === v.scale) { S.committed = null; return; }
    S.fitPending = false;
    cancelAnimation();
    S.view = { ...d.viewport };
    applyView();
  },
  "context-pins-changed": (d) => setPins(d.nodeIds || []),
  "theme-changed": (d) => d.theme && applyTheme(d.theme),
  "canvas-focus-node": (d) => {
    if (!d.nodeId) return;
    activate(d.nodeId);
    if (!d.noPan) focusNode(d.nodeId);
  },
};

// applyChanges applies one commit's canvas-changes frame: the nodes, edges
// and annotations it names replace (or remove) the page's copies, and only
// their cards and edges are redrawn.
function applyChanges(d) {
  const changed = [], removed = [];
  for (const n of d.nodes || []) { S.nodes.set(n.id, n); changed.push(n.id); }
  for (const id of d.removedNodes || []) { S.nodes.delete(id); removed.push(id); }
  const edgeIds = [];
  for (const e of d.edges || []) { putEdge(e); edgeIds.push(e.id); }
  for (const id of d.removedEdges || []) { dropEdge(id); edgeIds.push(id); }
  if ((d.annotations && d.annotations.length) || (d.removedAnnotations && d.removedAnnotations.length)) {
    const byId = new Map(S.annotations.map((a) => [a.id, a]));
    for (const a of d.annotations || []) byId.set(a.id, a);
    for (const id of d.removedAnnotations || []) byId.delete(id);
    S.annotations = [...byId.values()];
    renderAnnotations();
  }
  if (d.theme) applyTheme(d.theme);
  if (Array.isArray(d.pins)) setPins(d.pins);
  patch(changed, removed, edgeIds);
}

// setStatus shows the connection's state on the toolbar's dot (its label
// and tooltip name it): connecting, syncing, connected, reconnecting.
function setStatus(status) {
  S.status = status;
  if (status !== "connected" && status !== "reconnecting") S.synced = false;
  const dot = $(".status-dot");
  dot.dataset.status = status;
  dot.setAttribute("aria-label", "Canvas status: " + status);
  dot.title = status === "reconnecting" ? "Connection lost: reconnecting…" : "Canvas status: " + status;
  $(".session-id").textContent = S.sessionId ? S.sessionId.slice(0, 12) : "…";
  if (status === "reconnecting") $(".counts").textContent = "Reconnecting…";
  else if (status !== "connected") $(".counts").textContent = "Syncing canvas…";
  else renderCounts();
}

function applyTheme(next) {
  S.theme = theme.value = next;
  minimap.invalidate();
  document.documentElement.dataset.theme = next;
  const btn = $(".theme-toggle");
  const label = next === "dark" ? "Switch to light theme" : "Switch to dark theme";
  btn.setAttribute("aria-label", label);
  btn.title = label;
  btn.replaceChildren(icon(next === "dark" ? "sun" : "moon"));
}

// ---- rendering ----

function el(tag, attrs = {}, text) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text instanceof Node) n.append(text);
  else if (text !== undefined) n.textContent = text;
  return n;
}

const titleOf = (n) => (n.data && n.data.title) || TYPE_LABELS[n.type] || n.type;
const docked = (n) => n.dockPosition === "left" || n.dockPosition === "right";

// boardCount is the number of nodes on the board (not docked beside the
// toolbar); culling is on from CULL_MIN of them.
const boardCount = () => S.nodes.size - dockedIds.size;
const culling = () => boardCount() >= CULL_MIN;
const culler = createCuller(() => S.view, () => ({ w: viewportEl.clientWidth, h: viewportEl.clientHeight }));

// pinnedCard: a card that stays in the DOM however far the view is (the
// node the human works on).
const pinnedCard = (id) => id === S.active || S.selected.has(id);

// render redraws the whole board from the state: after a full layout (a
// connection's first, a resync) and the human's own multi-node actions.
// Existing elements are updated in place (an iframe that is moved is
// reloaded, so nothing is).
function render() {
  dockedIds.clear();
  S.maxZ = 0;
  for (const n of S.nodes.values()) {
    if (docked(n)) dockedIds.add(n.id);
    else S.maxZ = Math.max(S.maxZ, n.zIndex || 0);
  }
  for (const z of S.raised.values()) S.maxZ = Math.max(S.maxZ, z);
  renderDocked();
  for (const [id, e] of elements) {
    const n = S.nodes.get(id);
    if (!n || docked(n)) removeElement(id, e);
  }
  for (const id of [...parked.keys()]) {
    const n = S.nodes.get(id);
    if (!n || docked(n)) dropParked(id);
  }
  culler.update();
  // Groups first, then the rest, in layout order.
  for (const n of S.nodes.values()) if (n.type === "group" && !docked(n)) showCard(n);
  for (const n of S.nodes.values()) if (n.type !== "group" && !docked(n)) showCard(n);
  S.selected = new Set([...S.selected].filter((id) => S.nodes.has(id)));
  renderEdges();
  renderAnnotations();
  renderHUD();
  renderSelectionBar();
  minimap.invalidate();
  applyView();
}

// patch redraws what one commit changed: the cards of the changed and
// removed nodes, the edges they or the commit touched, the docked widgets
// when one of them changed. Its cost follows the change, not the board.
function patch(changed, removed, edgeIds) {
  let dockedDirty = false;
  const edgesToDraw = new Set(edgeIds);
  for (const id of removed) {
    overlayUpdate(null, id);
    if (dockedIds.delete(id)) dockedDirty = true;
    const e = elements.get(id);
    if (e) removeElement(id, e);
    dropParked(id);
    S.selected.delete(id);
    S.raised.delete(id);
    if (S.active === id) S.active = null;
    for (const eid of incident.get(id) || []) edgesToDraw.add(eid);
  }
  if (removed.length) renderSelectionBar();
  culler.update();
  for (const id of changed) {
    const n = S.nodes.get(id);
    if (!n) continue;
    overlayUpdate(n);
    if (docked(n) || dockedIds.has(id)) dockedDirty = true;
    if (docked(n)) {
      dockedIds.add(id);
      const e = elements.get(id);
      if (e) removeElement(id, e);
      dropParked(id);
    } else {
      dockedIds.delete(id);
      S.maxZ = Math.max(S.maxZ, n.zIndex || 0);
      showCard(n);
    }
    for (const eid of incident.get(id) || []) edgesToDraw.add(eid);
  }
  if (dockedDirty) renderDocked();
  for (const eid of edgesToDraw) drawEdge(eid);
  renderHUD();
  minimap.invalidate();
  if (farView()) farLayer.draw();
}

// showCard gives a board node its card, or takes it away when culling
// leaves it out of view; a card that stays is updated in place.
function showCard(n) {
  let e = elements.get(n.id);
  if (culling() && !pinnedCard(n.id) && (farView() || !culler.wants(n, !!e))) {
    if (e) cullElement(n.id, e);
    return;
  }
  if (!e) e = unpark(n.id);
  if (!e) {
    e = createNode(n);
    elements.set(n.id, e);
    // Groups are drawn under the other cards: before the first of them.
    const before = n.type === "group" ? layer.querySelector(':scope > .canvas-node:not([data-node-type="group"])') : null;
    layer.insertBefore(e, before);
  }
  updateNode(e, n);
}

// farView: the view is so far out on a culled board that cards would be
// unreadable: they are boxes on the far layer (farlayer.js), and only the
// cards the human works on stay in the DOM.
const FAR_SCALE = 0.3;
const farView = () => S.view.scale < FAR_SCALE && culling();
function* boardNodes() { for (const n of S.nodes.values()) if (!docked(n)) yield n; }
const farLayer = createFarLayer(viewportEl, { nodes: boardNodes, view: () => S.view, skip: (id) => elements.has(id) });

// cull runs once per frame after the view moved: cards that came near the
// view are created, cards that went far from it removed.
let cullFrame = 0, wasFar = false;
const MOUNT_BUDGET = 8;
function scheduleCull() {
  if (!cullFrame) cullFrame = requestAnimationFrame(cull);
}
function cull() {
  cullFrame = 0;
  if (farView()) {
    for (const [id, e] of elements) if (!pinnedCard(id)) cullElement(id, e);
    culler.update();
    cullEdges(false);
    farLayer.draw();
    wasFar = true;
    return;
  }
  farLayer.hide();
  const all = !culling();
  if (!all && !wasFar && culler.covers()) return;
  wasFar = false;
  culler.update();
  // Cards on screen are made at once; those of the margin at most
  // MOUNT_BUDGET a frame, so a pan that brings a row of them in spreads
  // the work over a few frames.
  let made = 0, deferred = false;
  for (const n of S.nodes.values()) {
    if (docked(n)) continue;
    const e = elements.get(n.id);
    if (all || pinnedCard(n.id) || culler.wants(n, !!e)) {
      if (e) continue;
      if (all || made < MOUNT_BUDGET || culler.inView(n)) { showCard(n); made++; } else deferred = true;
    } else if (e) cullElement(n.id, e);
  }
  cullEdges(all);
  if (deferred) { culler.deferred(); scheduleCull(); }
}

// cullEdges: edges follow the cards, drawn when they come near the view
// and taken away when they go far from it (all: the board is not culled).
function cullEdges(all) {
  const layerSVG = edgeLayer();
  for (const id of S.edges.keys()) if (!edgeEls.has(id)) drawEdge(id, layerSVG); else if (!all) drawEdgeIfNear(id);
}

// renderHUD: the counts, the context-pin bar and the welcome card.
function renderHUD() {
  if (S.status === "connected") renderCounts();
  const pinBar = $(".context-pin-bar");
  pinBar.hidden = S.pins.size === 0;
  $(".context-pin-text").textContent = `${S.pins.size} ${S.pins.size === 1 ? "node" : "nodes"} in context`;
  $(".welcome-card").hidden = boardCount() > 0;
}

function renderCounts() {
  const nc = S.nodes.size, ec = S.edges.size;
  let counts = `${nc} ${nc === 1 ? "node" : "nodes"}`;
  if (ec > 0) counts += ` · ${ec} ${ec === 1 ? "edge" : "edges"}`;
  let tc = 0;
  for (const n of S.nodes.values()) if (n.type === "trace") tc++;
  counts += traceCounts(tc);
  $(".counts").textContent = counts;
}

// setPins takes the canvas's context pins; only the cards whose pin
// changed are redrawn.
function setPins(ids) {
  const next = new Set(ids), before = S.pins;
  S.pins = next;
  if (!S.synced) return;
  const flipped = [...next].filter((id) => !before.has(id)).concat([...before].filter((id) => !next.has(id)));
  for (const id of flipped) {
    const n = S.nodes.get(id), e = elements.get(id);
    if (n && e) updateNode(e, n);
  }
  overlayRefresh();
  renderHUD();
}

// renderDocked redraws the widgets docked beside the toolbar.
function renderDocked() {
  const left = $(".hud-left"), right = $(".hud-right");
  left.replaceChildren(); right.replaceChildren();
  const rightOrder = { context: 0, ledger: 1 };
  const dockedNodes = [...dockedIds].map((id) => S.nodes.get(id)).filter(Boolean).sort((a, b) =>
    (rightOrder[a.type] ?? 2) - (rightOrder[b.type] ?? 2));
  for (const n of dockedNodes) {
    const d = el("div", { class: "docked-node", "data-docked-node": "true", "data-node-id": n.id, "data-node-type": n.type });
    d.append(el("span", { class: "node-type-badge" }, TYPE_LABELS[n.type] || n.type));
    if (n.data && n.data.title) d.append(el("span", { class: "node-title" }, n.data.title));
    if (n.type === "status") {
      const summary = el("span", { class: "docked-summary" });
      draw(html`<${DockedStatus} node=${n} />`, summary);
      d.append(summary);
    }
    d.addEventListener("contextmenu", (ev) => { ev.preventDefault(); nodeMenu(n.id, ev.clientX, ev.clientY); });
    (n.dockPosition === "left" ? left : right).append(d);
  }
}

function createNode(n) {
  const e = el("div", { class: "canvas-node", "data-node-id": n.id, "data-node-type": n.type });
  const bar = el("div", { class: "node-titlebar" });
  const title = el("span", { class: "node-title", title: "Double-click to rename" });
  const controls = el("span", { class: "node-controls" });
  const typeIcon = el("span", { class: "node-type-icon" }, icon(hasIcon("type-" + n.type) ? "type-" + n.type : "type-markdown"));
  bar.append(typeIcon, el("span", { class: "node-type-badge" }, TYPE_LABELS[n.type] || n.type), title, controls);
  const body = el("div", { class: "node-body" });
  const handle = el("div", { class: "node-resize-handle" });
  e.append(bar, body, handle);

  e.addEventListener("pointerdown", (ev) => {
    ev.stopPropagation();
    if (ev.shiftKey && !ev.target.closest(".node-titlebar")) { ev.preventDefault(); toggleSelected(n.id); }
    else activate(n.id);
  });
  for (const side of ["top", "right", "bottom", "left"]) {
    const port = el("div", { class: `node-port node-port-${side}`, title: "Drag to connect" });
    port.addEventListener("pointerdown", (ev) => { if (ev.button === 0) startConnect(ev, n.id); });
    e.append(port);
  }
  e.addEventListener("contextmenu", (ev) => { ev.preventDefault(); ev.stopPropagation(); nodeMenu(n.id, ev.clientX, ev.clientY); });
  bar.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || ev.target.closest("button, input")) return;
    startDrag(ev, n.id);
  });
  handle.addEventListener("pointerdown", (ev) => { if (ev.button === 0) startResize(ev, n.id); });
  // A trace is a pill without a title bar: it is dragged by its body.
  if (n.type === "trace") {
    body.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0 || ev.shiftKey || ev.target.closest("button, a, input")) return;
      startDrag(ev, n.id);
    });
  }
  title.addEventListener("dblclick", (ev) => { ev.stopPropagation(); rename(n.id, title); });
  return e;
}

function updateNode(e, n) {
  const collapsed = !!n.collapsed;
  e.className = e.classList.contains("attention-pulse") ? "canvas-node attention-pulse" : "canvas-node";
  e.classList.toggle("group-node", n.type === "group");
  e.classList.toggle("trace-node", n.type === "trace");
  e.classList.toggle("trace-running", n.type === "trace" && traceStatus(n.data || {}) === "running");
  // A group's frame is drawn in its colour (the theme's accent without one).
  const color = n.type === "group" && n.data && typeof n.data.color === "string" ? n.data.color : "";
  if (color) e.style.setProperty("--group-color", color); else e.style.removeProperty("--group-color");
  e.classList.toggle("pinned", locked(n));
  e.classList.toggle("context-pinned", S.pins.has(n.id));
  e.classList.toggle("collapsed", collapsed);
  e.classList.toggle("strict-size", !!(n.data && n.data.strictSize));
  e.classList.toggle("active", S.active === n.id);
  e.classList.toggle("selected", S.selected.has(n.id));
  e.classList.toggle("search-match", !!S.highlight && S.highlight.has(n.id));
  e.classList.toggle("search-dimmed", !!S.highlight && !S.highlight.has(n.id));
  place(e, n);
  e.style.zIndex = String(S.raised.get(n.id) ?? n.zIndex ?? 0);
  const title = e.querySelector(".node-title");
  if (!title.querySelector("input") && title.textContent !== titleOf(n)) title.textContent = titleOf(n);
  renderControls(e.querySelector(".node-controls"), n);

  // The body's renderer redraws only when what it shows changed (an app
  // frame: its session, not what the app records, which changes with every
  // call; a group: its members' types too). Redrawing is in place.
  const key = JSON.stringify(isExtApp(n) ? [n.type, n.data.appSessionId, n.data.sessionStatus, n.data.resourceUri]
    : n.type === "group" ? [n.type, n.data, ((n.data && n.data.children) || []).map(typeOf)] : [n.type, n.data]);
  if (e.bodyKey !== key) {
    e.bodyKey = key;
    mountBody(e.querySelector(".node-body"), n, typeOf);
  }
}

const typeOf = (id) => S.nodes.get(id)?.type;

// locked: the node's position is locked (auto-arrange leaves it):
// data.arrangeLocked, or pinned. A context pin also reads as pinned on the
// wire (the reference's format: pinned = pinned || context-pinned), so a
// context-pinned node's pinned says nothing, and "Lock position" sets
// arrangeLocked, which nothing else sets.
const locked = (n) => (n.data && n.data.arrangeLocked === true) || (!!n.pinned && !S.pins.has(n.id));

// removeElement takes a node's card off the board, ending what its body
// runs (an app's host bridge).
function removeElement(id, e) {
  unmountBody(e.querySelector(".node-body"));
  e.remove();
  elements.delete(id);
}

// Culled cards that hold a frame are parked, not removed: hidden in the
// DOM (an iframe that stays in the document keeps its page), up to
// PARK_MAX of them, the longest parked going first. A frame that comes
// back into view then shows the page as the human left it (an app's state,
// a scrolled document) instead of loading again.
const PARK_MAX = 16;
const parked = new Map(); // id -> card, in parking order

function cullElement(id, e) {
  if (!e.querySelector("iframe")) { removeElement(id, e); return; }
  elements.delete(id);
  e.classList.add("card-parked");
  e.setAttribute("aria-hidden", "true");
  parked.delete(id);
  parked.set(id, e);
  if (parked.size > PARK_MAX) dropParked(parked.keys().next().value);
}

function unpark(id) {
  const e = parked.get(id);
  if (!e) return null;
  parked.delete(id);
  e.classList.remove("card-parked");
  e.removeAttribute("aria-hidden");
  elements.set(id, e);
  return e;
}

function dropParked(id) {
  const e = parked.get(id);
  if (!e) return;
  parked.delete(id);
  unmountBody(e.querySelector(".node-body"));
  e.remove();
}

function place(e, n) {
  e.style.left = n.position.x + "px";
  e.style.top = n.position.y + "px";
  e.style.width = n.size.width + "px";
  e.style.height = n.collapsed ? "auto" : n.size.height + "px";
}

function renderControls(box, n) {
  // Rebuilt only when they change, so a button under the pointer survives
  // the layout updates that keep arriving.
  const site = !!siteURL(n);
  const key = [locked(n), S.pins.has(n.id), n.collapsed, n.type, site].join();
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  const button = (glyph, title, cls, onClick) => {
    const b = el("button", { type: "button", class: cls, title, "aria-label": title });
    b.append(glyph.length > 1 ? icon(glyph) : glyph);
    b.addEventListener("click", (ev) => { ev.stopPropagation(); onClick(); });
    box.append(b);
  };
  if (locked(n)) box.append(el("span", { class: "pin-indicator", title: "Position locked" }, icon("pinned")));
  const inContext = S.pins.has(n.id);
  button("spark", inContext ? "Remove from context" : "Pin as context", "ctx-pin-btn" + (inContext ? " active" : ""),
    () => toggleContextPin(n.id));
  if (site) button("external", "Open as site", "site-btn", () => openSite(S.nodes.get(n.id) || n));
  if (n.type !== "trace" && n.type !== "group") button("fullscreen", "Expand", "expand-btn", () => openOverlay(n.id));
  button(n.collapsed ? "expand" : "collapse", n.collapsed ? "Expand" : "Collapse", "collapse-btn",
    () => setCollapsed(n.id, !n.collapsed));
  button("×", "Close", "close-btn", () => closeNode(n.id));
}

const svgNS = "http://www.w3.org/2000/svg";

// exitPoint is where the line from a's centre towards b leaves a's box.
function exitPoint(a, towards) {
  const c = center(a), dx = towards.x - c.x, dy = towards.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const t = Math.min(dx ? a.size.width / 2 / Math.abs(dx) : Infinity, dy ? a.size.height / 2 / Math.abs(dy) : Infinity);
  return { x: c.x + dx * t, y: c.y + dy * t };
}

const svg = (tag, attrs) => {
  const n = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
};

// Edges are keyed like cards: edgeEls holds each edge's <g> (its line and
// label), incident the edges at each node, so a node's change redraws only
// the edges it ends.
const edgeEls = new Map(); // edge id -> <g>
const incident = new Map(); // node id -> Set of edge ids

function setEdges(list) {
  S.edges = new Map();
  incident.clear();
  for (const e of list) putEdge(e);
}

function putEdge(e) {
  const old = S.edges.get(e.id);
  if (old) unlink(old);
  S.edges.set(e.id, e);
  for (const end of [e.from, e.to]) {
    if (!incident.has(end)) incident.set(end, new Set());
    incident.get(end).add(e.id);
  }
}

function dropEdge(id) {
  const e = S.edges.get(id);
  if (!e) return;
  unlink(e);
  S.edges.delete(id);
}

function unlink(e) {
  for (const end of [e.from, e.to]) {
    const set = incident.get(end);
    if (set) { set.delete(e.id); if (!set.size) incident.delete(end); }
  }
}

function edgeLayer() {
  const layerSVG = $(".edge-layer");
  if (!layerSVG.querySelector("defs")) {
    const marker = svg("marker", { id: "edge-arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7",
      markerHeight: "7", orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0 0 L10 5 L0 10 z", class: "edge-arrowhead" }));
    const defs = svg("defs", {});
    defs.append(marker);
    layerSVG.prepend(defs);
  }
  return layerSVG;
}

// renderEdges redraws every edge (a full layout).
function renderEdges() {
  const layerSVG = edgeLayer();
  for (const [id, g] of edgeEls) if (!S.edges.has(id)) { g.remove(); edgeEls.delete(id); }
  for (const id of S.edges.keys()) drawEdge(id, layerSVG);
}

// drawEdge draws one edge (or takes it away: removed, or an end is gone or
// docked).
function drawEdge(id, layerSVG = edgeLayer()) {
  const e = S.edges.get(id);
  let g = edgeEls.get(id);
  const a = e && S.nodes.get(e.from), b = e && S.nodes.get(e.to);
  if (!a || !b || docked(a) || docked(b) || (culling() && !edgeNear(a, b, !!g))) {
    if (g) { g.remove(); edgeEls.delete(id); }
    return;
  }
  if (!g) {
    g = svg("g", { class: "edge-group" });
    edgeEls.set(id, g);
    layerSVG.append(g);
  }
  const p = exitPoint(a, center(b)), q = exitPoint(b, center(a));
  const line = svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: edgeClass(e) });
  if (e.type === "flow" || e.type === "depends-on") line.setAttribute("marker-end", "url(#edge-arrow)");
  line.dataset.edgeId = e.id;
  g.replaceChildren(line);
  if (e.label) {
    const mx = (p.x + q.x) / 2, my = (p.y + q.y) / 2, w = 7 * e.label.length + 16;
    g.append(svg("rect", { class: "edge-label-bg", x: mx - w / 2, y: my - 10, width: w, height: 20, rx: 4 }));
    const t = svg("text", { class: "edge-label", x: mx, y: my + 4, "text-anchor": "middle" });
    t.textContent = e.label;
    g.append(t);
  }
}

// edgeNear: on a culled board an edge is in the DOM while the box between
// its ends' centres is near the view (cull.js).
function edgeNear(a, b, had) {
  const p = center(a), q = center(b);
  return culler.wantsBox({ x0: Math.min(p.x, q.x), y0: Math.min(p.y, q.y), x1: Math.max(p.x, q.x), y1: Math.max(p.y, q.y) }, had);
}

function edgeClass(e) {
  const cls = ["edge", `edge-${e.type}`, e.style || (e.type === "references" ? "dashed" : "solid")];
  if (e.animated) cls.push("animated");
  if (S.active && (e.from === S.active || e.to === S.active)) cls.push("edge-active");
  else if (S.active) cls.push("edge-dimmed");
  return cls.join(" ");
}

// restyleEdges marks the edges at the active node (and dims the others).
function restyleEdges() {
  for (const [id, g] of edgeEls) {
    const e = S.edges.get(id), line = g.firstChild;
    if (e && line) line.setAttribute("class", edgeClass(e));
  }
}

// drawEdgeIfNear takes away a drawn edge that left the view's neighbourhood.
function drawEdgeIfNear(id) {
  const e = S.edges.get(id), a = e && S.nodes.get(e.from), b = e && S.nodes.get(e.to);
  if (a && b && !edgeNear(a, b, true)) drawEdge(id);
}

// drawEdgesOf redraws the edges at the given nodes (they moved or resized).
function drawEdgesOf(ids) {
  const layerSVG = edgeLayer();
  for (const id of ids) for (const eid of incident.get(id) || []) drawEdge(eid, layerSVG);
}

function renderAnnotations() {
  const svg = $(".annotation-layer");
  svg.replaceChildren();
  for (const a of S.annotations) {
    const pts = a.points || [];
    if (pts.length === 0) continue;
    const color = !a.color || a.color === "currentColor" ? "var(--c-annotation)" : a.color;
    if (a.type === "text") {
      const t = document.createElementNS(svgNS, "text");
      t.setAttribute("x", pts[0].x); t.setAttribute("y", pts[0].y);
      t.setAttribute("font-size", a.width || 24);
      t.setAttribute("font-weight", "bold");
      t.style.fill = color;
      t.textContent = a.text || "";
      t.dataset.annotationId = a.id;
      svg.append(t);
      continue;
    }
    const path = document.createElementNS(svgNS, "path");
    path.setAttribute("d", pts.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke-width", a.width || 4);
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
    path.style.stroke = color;
    path.dataset.annotationId = a.id;
    svg.append(path);
  }
}

// ---- the view ----

// While the view moves the world is its own compositor layer, so a pan
// or zoom frame moves pixels already drawn instead of repainting every
// card; shortly after it stops the layer goes, and the cards are drawn
// again, sharp, at the new scale.
let movingTimer = 0;
function markMoving() {
  world.classList.add("moving");
  clearTimeout(movingTimer);
  movingTimer = setTimeout(() => {
    world.classList.remove("moving");
    chromeScale(world, S.view.scale);
  }, 200);
}

function applyView() {
  const v = S.view;
  const transform = `matrix(${v.scale}, 0, 0, ${v.scale}, ${v.x}, ${v.y})`;
  const moving = world.style.transform && world.style.transform !== transform;
  if (moving) markMoving();
  world.style.transform = transform;
  // The chrome's counter-scale restyles and lays out every card: while the
  // view moves (a zoom gesture, an animation) the cards scale with the
  // world, and the chrome takes its size once the view rests (markMoving).
  if (!moving) chromeScale(world, v.scale);
  $(".zoom-level").textContent = Math.round(v.scale * 100) + "%";
  minimap.draw();
  scheduleCull();
}

const minimap = createMinimap({
  nodes: () => [...S.nodes.values()],
  edges: () => S.edges.values(),
  view: () => S.view,
  viewportSize: () => ({ w: viewportEl.clientWidth, h: viewportEl.clientHeight }),
  centreOn: (x, y) => animateView({ scale: S.view.scale, x: viewportEl.clientWidth / 2 - x * S.view.scale,
    y: viewportEl.clientHeight / 2 - y * S.view.scale }, 200),
});

const clampScale = (s) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

// commitView persists the view: the server broadcasts it to every client.
function commitView() {
  S.fitPending = false;
  const { x, y, scale } = S.view;
  S.committed = { x, y, scale };
  api("POST", "/api/canvas/viewport", { x, y, scale });
}

let animation = 0;
function cancelAnimation() { cancelAnimationFrame(animation); animation = 0; }

function animateView(target, ms = 300) {
  cancelAnimation();
  const from = { ...S.view }, t0 = performance.now();
  const step = (now) => {
    const k = Math.min(1, (now - t0) / ms), e = 1 - Math.pow(1 - k, 3);
    S.view = { x: from.x + (target.x - from.x) * e, y: from.y + (target.y - from.y) * e,
      scale: from.scale + (target.scale - from.scale) * e };
    applyView();
    if (k < 1) animation = requestAnimationFrame(step);
    else { animation = 0; commitView(); }
  };
  animation = requestAnimationFrame(step);
}

// fittedView is the view that shows every node on the board (docked
// widgets sit beside the toolbar, not on the board), never zoomed in past
// 100%; null when the board is empty.
function fittedView() {
  const b = nodeBounds([...S.nodes.values()].filter((n) => !docked(n)));
  if (!b) return null;
  const { minX, minY, maxX, maxY } = b;
  const pad = 60, W = viewportEl.clientWidth, H = viewportEl.clientHeight;
  const scale = clampScale(Math.min(1, W / (maxX - minX + 2 * pad), H / (maxY - minY + 2 * pad)));
  return { scale, x: W / 2 - ((minX + maxX) / 2) * scale, y: H / 2 - ((minY + maxY) / 2) * scale };
}

function fitView() {
  const v = fittedView();
  if (v) animateView(v);
}

// initialFit fits the view to the board once the page has its size: a
// layout that arrives before the stylesheet has sized the viewport waits
// for the first resize (a fit computed on a 0 px viewport would zoom all
// the way out). A view change before then (the user, another viewer)
// cancels it.
function initialFit() {
  if (viewportEl.clientWidth < 50 || viewportEl.clientHeight < 50) { S.fitPending = true; return; }
  S.fitPending = false;
  S.view = fittedView() || S.view;
}
new ResizeObserver(() => {
  if (!S.fitPending) return;
  initialFit();
  if (!S.fitPending) applyView();
}).observe(viewportEl);

// savedViewport: the canvas's viewport was set (panned, zoomed, fitted by
// someone) rather than left at the default a new canvas starts with.
const savedViewport = (v) => !!v && !(v.x === 0 && v.y === 0 && v.scale === 1);

function focusNode(id) {
  const n = S.nodes.get(id);
  if (!n) return;
  const c = center(n), s = S.view.scale;
  animateView({ scale: s, x: viewportEl.clientWidth / 2 - c.x * s, y: viewportEl.clientHeight / 2 - c.y * s });
}

function raise(id) {
  S.raised.set(id, ++S.maxZ);
  const e = elements.get(id);
  if (e) e.style.zIndex = String(S.maxZ);
}

$(".action-bar").addEventListener("click", (ev) => {
  const action = ev.target.closest("button")?.dataset.action;
  if (action === "palette") openPalette(paletteContext);
  if (action === "shortcuts") toggleShortcuts();
});

$(".nav-bar").addEventListener("click", (ev) => {
  const action = ev.target.closest("button")?.dataset.action;
  switch (action) {
    case "fit": fitView(); break;
    case "reset": animateView({ x: 0, y: 0, scale: 1 }, 250); break;
    case "zoom-in": zoomBy(1.25); break;
    case "zoom-out": zoomBy(1 / 1.25); break;
    case "theme": toggleTheme(); break;
    case "arrange": api("POST", "/api/canvas/arrange", { layout: S.edges.size ? "flow" : "grid" }); break;
    case "undo": api("POST", "/api/canvas/undo"); break;
    case "redo": api("POST", "/api/canvas/redo"); break;
    case "snapshots": toggleSnapshots(ev.target.closest("button"), api); break;
    case "minimap": {
      const shown = minimap.toggle(), b = ev.target.closest("button"), label = shown ? "Hide minimap" : "Show minimap";
      b.classList.toggle("active", shown);
      b.setAttribute("aria-label", label);
      b.title = label;
      break;
    }
  }
});

// The shortcut overlay (web-client.md §10.2), for the keys this page has.
function toggleShortcuts() {
  const open = document.querySelector(".shortcut-overlay-backdrop");
  if (open) { open.remove(); return; }
  const mod = /Mac/.test(navigator.platform) ? "Cmd" : "Ctrl";
  const groups = {
    Navigation: [[`${mod}+K`, "Command palette"], ["Tab / Shift+Tab", "Cycle nodes"], [`${mod}+0`, "Reset view"],
      [`${mod}++ / ${mod}+-`, "Zoom in / out"], ["Wheel, pinch", "Zoom about the pointer"], ["Trackpad scroll", "Pan"], ["Arrows", "Walk the graph"],
      ["Alt+Arrows (Shift: 1 px)", "Move the active node"], ["Shift+F10", "Node menu"]],
    Creation: [["Double-click", "New note"], ["Drag a port to a node", "Connect"], ["Menu: Connect from here", "Then click a node"]],
    Selection: [["Click", "Focus"], ["Shift+Click", "Toggle selection"], ["Shift+Drag", "Lasso"], ["Esc", "Clear / close"]],
    View: [["?", "This overlay"], ["Minimap click/drag", "Move the view"], ["Right-click", "Context menu"]],
  };
  const backdrop = el("div", { class: "shortcut-overlay-backdrop" });
  const card = el("div", { class: "shortcut-overlay", role: "dialog", "aria-label": "Keyboard Shortcuts" });
  card.append(el("strong", {}, "Keyboard Shortcuts"), el("div", { class: "shortcut-hint" }, "Press ? or Esc to close"));
  const cols = el("div", { class: "shortcut-groups" });
  for (const [name, rows] of Object.entries(groups)) {
    const g = el("div", { class: "shortcut-group" });
    g.append(el("h4", {}, name));
    for (const [key, what] of rows) {
      const row = el("div", { class: "shortcut-row" });
      row.append(el("kbd", {}, key), el("span", {}, what));
      g.append(row);
    }
    cols.append(g);
  }
  card.append(cols);
  backdrop.append(card);
  backdrop.addEventListener("pointerdown", (e) => { if (e.target === backdrop) backdrop.remove(); });
  document.body.append(backdrop);
}

function toggleTheme() {
  const next = S.theme === "dark" ? "light" : "dark";
  applyTheme(next);
  api("POST", "/api/canvas/theme", { theme: next });
}

function zoomBy(factor) {
  const v = S.view;
  animateView({ ...v, scale: clampScale(v.scale * factor) }, 150);
}

// activate makes a node the active one and brings it to the front.
function activate(id) {
  const before = S.active;
  S.active = id;
  // The active card is in the DOM however far it is (culling).
  const n = S.nodes.get(id);
  if (n && !docked(n) && !elements.has(id)) showCard(n);
  raise(id);
  if (before !== id) {
    elements.get(before)?.classList.remove("active");
    elements.get(id)?.classList.add("active");
    restyleEdges();
  }
}

function newNote(at) {
  const body = { type: "markdown", title: "New note", width: 520, height: 360 };
  if (at) Object.assign(body, { x: Math.round(at.x - 260), y: Math.round(at.y - 180) });
  api("POST", "/api/canvas/node", body);
}

const setCollapsed = (id, collapsed) => api("POST", "/api/canvas/update", { updates: [{ id, collapsed }] });

function closeNode(id) {
  S.nodes.delete(id);
  patch([], [id], []);
  api("DELETE", "/api/canvas/node/" + encodeURIComponent(id));
}

// GROUP_COLORS: the group frame colours the menu offers (web-client.md §7).
const GROUP_COLORS = [["Blue", "#3b82f6"], ["Green", "#22c55e"], ["Yellow", "#eab308"], ["Red", "#ef4444"],
  ["Gray", "#6b7280"], ["Purple", "#a855f7"]];

// nodeMenu is the right-click menu of a node (web-client.md §9.1).
function nodeMenu(id, x, y, opts) {
  const n = S.nodes.get(id);
  if (!n) return;
  const edges = (incident.get(id) || new Set()).size;
  const items = [
    { label: "Focus", run: () => { activate(id); focusNode(id); } },
    ...(n.type !== "trace" && n.type !== "group" ? [{ label: "Expand ⤢", run: () => openOverlay(id) }] : []),
    { label: n.collapsed ? "Expand" : "Collapse", run: () => setCollapsed(id, !n.collapsed) },
    { label: locked(n) ? "Unlock position" : "Lock position",
      run: () => api("PATCH", "/api/canvas/node/" + encodeURIComponent(id),
        locked(n) ? { arrangeLocked: false, pinned: false } : { arrangeLocked: true }) },
    { label: S.pins.has(id) ? "Remove from context" : "Pin as context", run: () => toggleContextPin(id) },
  ];
  const armed = armedConnection();
  if (armed && armed.id !== id && S.nodes.has(armed.id)) items.push({ label: `Connect from "${short(armed.title)}"`, run: () => connectTo(id) });
  items.push({ label: armed ? "Connect from here (replace)" : "Connect from here", run: () => armConnection(id, titleOf(n)) },
    { label: `${edges} ${edges === 1 ? "edge" : "edges"} connected`, info: true });
  const specific = typeMenuItems(n);
  if (n.type === "group") {
    const count = ((n.data && n.data.children) || []).length;
    const setColor = (color) => api("PATCH", "/api/canvas/node/" + encodeURIComponent(id), { data: { color } });
    specific.push(
      { label: "Group color", swatches: GROUP_COLORS.map(([name, color]) => ({ name, color, run: () => setColor(color) })) },
      { label: "Custom group color", color: String(n.data?.color || ""), run: (color) => setColor(color) },
      { label: "Theme default color", run: () => setColor(null) },
      { label: `Ungroup (${count} ${count === 1 ? "node" : "nodes"})`,
        run: () => api("POST", "/api/canvas/group/ungroup", { groupId: id }) });
  }
  if (n.type === "status" || n.type === "ledger") {
    if (docked(n)) specific.push({ label: "Undock to canvas", run: () => undock(n) });
    else specific.push(
      { label: "Dock left of toolbar", run: () => api("POST", "/api/canvas/update", { updates: [{ id, dockPosition: "left" }] }) },
      { label: "Dock right of toolbar", run: () => api("POST", "/api/canvas/update", { updates: [{ id, dockPosition: "right" }] }) });
  }
  if (specific.length) items.push("-", ...specific);
  items.push("-", { label: "Close", run: () => closeNode(id) });
  showMenu(x, y, items, opts);
}

// undock places a docked node in the middle of the current view.
function undock(n) {
  const c = toWorld(innerWidth / 2, innerHeight / 2);
  api("POST", "/api/canvas/update", { updates: [{ id: n.id, dockPosition: null,
    position: { x: Math.round(c.x - n.size.width / 2), y: Math.round(c.y - n.size.height / 2) } }] });
}

const paletteContext = {
  nodes: () => [...S.nodes.values()],
  labelOf: (n) => titleOf(n),
  badgeOf: (n) => TYPE_LABELS[n.type] || n.type,
  actions: [
    { label: "New note (markdown node)", badge: "CREATE", run: () => newNote(null) },
    ...promptActions(() => toWorld(innerWidth / 2, innerHeight / 2)),
    { label: "Fit all nodes", badge: "VIEW", run: () => fitView() },
    { label: "Auto-arrange (grid)", badge: "LAYOUT", run: () => api("POST", "/api/canvas/arrange", { layout: "grid" }) },
    { label: "Auto-arrange (column)", badge: "LAYOUT", run: () => api("POST", "/api/canvas/arrange", { layout: "column" }) },
    { label: "Toggle theme (dark/light)", badge: "THEME", run: () => toggleTheme() },
  ],
  focus: (id) => { activate(id); focusNode(id); },
  highlight: (ids) => {
    S.highlight = ids;
    for (const [id, e] of elements) {
      e.classList.toggle("search-match", !!ids && ids.has(id));
      e.classList.toggle("search-dimmed", !!ids && !ids.has(id));
    }
  },
};

// Keys (web-client.md §10.3, the parts this page has).
addEventListener("keydown", (e) => {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.key.toLowerCase() === "k") {
    e.preventDefault();
    if (paletteOpen()) closePalette(paletteContext); else openPalette(paletteContext);
    return;
  }
  if (e.key === "Escape" && paletteOpen()) { closePalette(paletteContext); return; }
  const overlay = document.querySelector(".shortcut-overlay-backdrop");
  if (e.key === "Escape" && overlay) { overlay.remove(); return; }
  if (/^(INPUT|TEXTAREA)$/.test(document.activeElement?.tagName || "") || document.activeElement?.isContentEditable) return;
  // The focus overlay is a dialog: Tab walks its controls, not the board.
  if (overlayOpen()) return;
  if (e.key === "?") { e.preventDefault(); toggleShortcuts(); return; }
  if (mod && e.key === "0") { e.preventDefault(); animateView({ x: 0, y: 0, scale: 1 }, 250); return; }
  if (mod && (e.key === "=" || e.key === "+")) { e.preventDefault(); zoomBy(1.25); return; }
  if (mod && e.key === "-") { e.preventDefault(); zoomBy(1 / 1.25); return; }
  if (e.key === "Escape") {
    closeMenu();
    if (S.selected.size) { clearSelection(); return; }
    if (S.active) { elements.get(S.active)?.classList.remove("active"); S.active = null; }
    return;
  }
  if (e.key === "Tab") {
    // The board is one stop in the page's Tab order (the toolbars and
    // panels keep theirs): inside it Tab walks the nodes, and past the
    // last one (or before the first, with Shift) the focus goes on —
    // the reference's Tab never left the board (a keyboard trap).
    if (!viewportEl.contains(document.activeElement)) return;
    const ids = [...S.nodes.values()].filter((n) => !docked(n)).map((n) => n.id);
    if (ids.length === 0) return;
    const i = ids.indexOf(S.active);
    const j = i < 0 ? (e.shiftKey ? ids.length - 1 : 0) : i + (e.shiftKey ? -1 : 1);
    if (j < 0 || j >= ids.length) {
      elements.get(S.active)?.classList.remove("active");
      S.active = null;
      restyleEdges();
      if (focusPast(viewportEl, e.shiftKey)) e.preventDefault();
      return;
    }
    e.preventDefault();
    activate(ids[j]);
    focusNode(ids[j]);
    return;
  }
  // The node menu from the keyboard: Shift+F10 or the menu key on the
  // active node (every item then by arrows and Enter, menu.js).
  if ((e.key === "ContextMenu" || (e.shiftKey && e.key === "F10")) && S.active && elements.has(S.active)) {
    e.preventDefault();
    const r = elements.get(S.active).getBoundingClientRect();
    nodeMenu(S.active, r.left + 12, r.top + 12, { keyboard: true });
    return;
  }
  if (ARROWS[e.key] && S.active && e.altKey && !mod && !overlayOpen()) {
    e.preventDefault();
    nudge(S.active, ARROWS[e.key], e.shiftKey ? 1 : 20);
    return;
  }
  if (ARROWS[e.key] && S.active && !mod && !e.altKey && !overlayOpen()) {
    e.preventDefault();
    const from = S.nodes.get(S.active);
    const next = walk(from, e.key, new Set([...(incident.get(S.active) || [])].map((eid) => {
      const edge = S.edges.get(eid);
      return edge.from === S.active ? edge.to : edge.from;
    })), [...S.nodes.values()].filter((n) => !docked(n)));
    if (next) { activate(next); focusNode(next); }
  }
});

// focusPast moves the focus to the first control after el's subtree (with
// back, the last one before it), in document order, round to the other
// end of the page; it reports whether there was one.
function focusPast(el, back) {
  const sel = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  const outside = [...document.querySelectorAll(sel)].filter((c) => !el.contains(c) && c.getClientRects().length > 0);
  // Nothing past the board: round to the page's other end (the browser's
  // own chrome is out of a page's reach).
  const target = back
    ? outside.filter((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_PRECEDING).pop() || outside[outside.length - 1]
    : outside.find((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) || outside[0];
  if (!target) return false;
  target.focus();
  return true;
}

// ---- gestures ----

const toWorld = (clientX, clientY) => {
  const r = viewportEl.getBoundingClientRect();
  return { x: (clientX - r.left - S.view.x) / S.view.scale, y: (clientY - r.top - S.view.y) / S.view.scale };
};

// Files and URLs dropped or pasted onto the board (drop.js).
setupDrop(viewportEl, {
  target: app,
  toWorld,
  center: () => { const r = viewportEl.getBoundingClientRect(); return toWorld(r.left + r.width / 2, r.top + r.height / 2); },
  blocked: () => overlayOpen() || presenting(),
});

// Background drag pans; release commits.
viewportEl.addEventListener("pointerdown", (ev) => {
  if (ev.button !== 0 || ev.target !== viewportEl && ev.target !== world && !ev.target.closest("svg")) return;
  if (ev.shiftKey) { ev.preventDefault(); startLasso(ev); return; }
  cancelAnimation();
  if (S.active) { elements.get(S.active)?.classList.remove("active"); S.active = null; restyleEdges(); }
  if (S.selected.size) clearSelection();
  const start = { x: ev.clientX, y: ev.clientY, v: { ...S.view } };
  viewportEl.setPointerCapture(ev.pointerId);
  viewportEl.classList.add("panning");
  let moved = false;
  const move = (e) => {
    moved = true;
    S.view = { ...start.v, x: start.v.x + e.clientX - start.x, y: start.v.y + e.clientY - start.y };
    applyView();
  };
  const up = () => {
    viewportEl.removeEventListener("pointermove", move);
    viewportEl.classList.remove("panning");
    if (moved) commitView();
  };
  viewportEl.addEventListener("pointermove", move);
  viewportEl.addEventListener("pointerup", up, { once: true });
  viewportEl.addEventListener("pointercancel", up, { once: true });
});

// Wheel: a mouse wheel, and with Ctrl/⌘ any wheel (a trackpad pinch), zooms
// about the pointer; a trackpad's two-finger scroll pans (interact.js).
let wheelTimer = 0;
viewportEl.addEventListener("wheel", (ev) => {
  ev.preventDefault();
  cancelAnimation();
  const v = S.view;
  if (wheelZooms(ev)) {
    const r = viewportEl.getBoundingClientRect();
    const px = ev.clientX - r.left, py = ev.clientY - r.top;
    const dy = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaMode === 2 ? ev.deltaY * 100 : ev.deltaY;
    const scale = clampScale(v.scale * (1 - Math.max(-100, Math.min(100, dy)) * 0.002));
    const k = scale / v.scale;
    S.view = { scale, x: px - (px - v.x) * k, y: py - (py - v.y) * k };
  } else {
    S.view = { ...v, x: v.x - ev.deltaX, y: v.y - ev.deltaY };
  }
  applyView();
  clearTimeout(wheelTimer);
  wheelTimer = setTimeout(commitView, 140);
}, { passive: false });

// ---- selection (Shift+click, Shift+drag lasso) ----

function toggleSelected(id) {
  if (S.selected.has(id)) S.selected.delete(id); else S.selected.add(id);
  elements.get(id)?.classList.toggle("selected", S.selected.has(id));
  renderSelectionBar();
}

function clearSelection() {
  for (const id of S.selected) elements.get(id)?.classList.remove("selected");
  S.selected = new Set();
  renderSelectionBar();
}

function renderSelectionBar() {
  const bar = $(".selection-bar"), n = S.selected.size;
  bar.hidden = n === 0;
  $(".selection-text").textContent = `${n} ${n === 1 ? "node" : "nodes"} selected`;
  for (const b of bar.querySelectorAll('[data-sel="group"], [data-sel="connect"]')) b.hidden = n < 2;
}

$(".selection-bar").addEventListener("click", async (ev) => {
  const what = ev.target.closest("button")?.dataset.sel;
  const ids = [...S.selected];
  switch (what) {
    case "pin": {
      const pins = new Set([...S.pins, ...ids]);
      setPins([...pins]);
      api("POST", "/api/canvas/context-pins", { nodeIds: [...pins] });
      break;
    }
    case "group":
      api("POST", "/api/canvas/group", { title: "Group", childIds: ids });
      break;
    case "connect":
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) await api("POST", "/api/canvas/edge", { from: ids[i], to: ids[j], type: "relation" });
      }
      break;
    case "clear":
      break;
    default:
      return;
  }
  clearSelection();
});

function startLasso(ev) {
  const rect = $(".lasso-rect"), r0 = viewportEl.getBoundingClientRect();
  const sx = ev.clientX, sy = ev.clientY;
  viewportEl.setPointerCapture(ev.pointerId);
  const box = (e) => ({ x: Math.min(sx, e.clientX), y: Math.min(sy, e.clientY), w: Math.abs(e.clientX - sx), h: Math.abs(e.clientY - sy) });
  const move = (e) => {
    const b = box(e);
    rect.hidden = false;
    Object.assign(rect.style, { left: b.x - r0.left + "px", top: b.y - r0.top + "px", width: b.w + "px", height: b.h + "px" });
  };
  const up = (e) => {
    viewportEl.removeEventListener("pointermove", move);
    rect.hidden = true;
    const b = box(e);
    if (b.w <= 5 && b.h <= 5) return;
    const p = toWorld(b.x, b.y), q = toWorld(b.x + b.w, b.y + b.h);
    clearSelection();
    for (const n of S.nodes.values()) {
      if (docked(n)) continue;
      if (n.position.x < q.x && n.position.x + n.size.width > p.x && n.position.y < q.y && n.position.y + n.size.height > p.y) {
        S.selected.add(n.id);
        elements.get(n.id)?.classList.add("selected");
      }
    }
    renderSelectionBar();
  };
  viewportEl.addEventListener("pointermove", move);
  viewportEl.addEventListener("pointerup", up, { once: true });
}

// ---- edges from ports ----

// startConnect drags a preview line from a node's port; dropped on another
// board node it creates a relation edge (web-client.md §6.2).
function startConnect(ev, fromId) {
  ev.preventDefault();
  ev.stopPropagation();
  const from = S.nodes.get(fromId);
  if (!from) return;
  const preview = $(".connect-preview");
  const start = center(from);
  const move = (e) => {
    const p = toWorld(e.clientX, e.clientY);
    preview.replaceChildren(svg("line", { x1: start.x, y1: start.y, x2: p.x, y2: p.y, class: "connect-line" }),
      svg("circle", { cx: p.x, cy: p.y, r: 5, class: "connect-dot" }));
  };
  const up = (e) => {
    removeEventListener("pointermove", move);
    preview.replaceChildren();
    const p = toWorld(e.clientX, e.clientY);
    const target = [...S.nodes.values()].find((n) => n.id !== fromId && !docked(n) &&
      p.x >= n.position.x && p.x <= n.position.x + n.size.width && p.y >= n.position.y && p.y <= n.position.y + n.size.height);
    if (target) api("POST", "/api/canvas/edge", { from: fromId, to: target.id, type: "relation" });
  };
  addEventListener("pointermove", move);
  addEventListener("pointerup", up, { once: true });
}

// Right-click on the board: create things there (web-client.md §9.2).
viewportEl.addEventListener("contextmenu", (ev) => {
  if (ev.target.closest(".canvas-node")) return;
  ev.preventDefault();
  const p = toWorld(ev.clientX, ev.clientY);
  showMenu(ev.clientX, ev.clientY, [
    { label: "New note", run: () => newNote(p) },
    "-",
    { label: "New group", run: () => api("POST", "/api/canvas/group", { title: "Group", x: Math.round(p.x), y: Math.round(p.y), width: 600, height: 400 }) },
  ]);
});

// Double-click on the background creates a note there.
viewportEl.addEventListener("dblclick", (ev) => {
  if (ev.target !== viewportEl && ev.target !== world && !ev.target.closest("svg")) return;
  newNote(toWorld(ev.clientX, ev.clientY));
});

// Drag by the title bar; a group carries its children. Nothing goes to the
// server until release.
// moversOf: what moving n moves (a group carries its children).
function moversOf(n) {
  const movers = [n];
  if (n.type === "group") {
    for (const c of (n.data && n.data.children) || []) {
      const child = S.nodes.get(c);
      if (child && child.type !== "group") movers.push(child);
    }
  }
  return movers;
}

// nudge moves the active node (and a group's children) by the keyboard:
// Alt+arrow 20 px, with Shift 1 px; one update per key press.
function nudge(id, dir, step) {
  const n = S.nodes.get(id);
  if (!n) return;
  const movers = moversOf(n);
  for (const m of movers) {
    m.position = { x: Math.round(m.position.x + dir[0] * step), y: Math.round(m.position.y + dir[1] * step) };
    const me = elements.get(m.id);
    if (me) place(me, m);
  }
  drawEdgesOf(movers.map((m) => m.id));
  api("POST", "/api/canvas/update", { updates: movers.map((m) => ({ id: m.id, position: m.position })) });
}

function startDrag(ev, id) {
  const n = S.nodes.get(id);
  if (!n) return;
  ev.preventDefault();
  const movers = moversOf(n);
  const origin = movers.map((m) => ({ m, x: m.position.x, y: m.position.y }));
  const sx = ev.clientX, sy = ev.clientY;
  // Snap guides (snap.js): the dragged card snaps to the other cards'
  // edges and centres; its group's children move by the same snapped step.
  const snapper = createSnapper(n, [...S.nodes.values()], docked);
  document.documentElement.classList.add("is-node-dragging");
  let moved = false;
  const move = (e) => {
    moved = true;
    let dx = (e.clientX - sx) / S.view.scale, dy = (e.clientY - sy) / S.view.scale;
    const snapped = snapper.snap(origin[0].x + dx, origin[0].y + dy, n.size.width, n.size.height);
    dx = snapped.x - origin[0].x;
    dy = snapped.y - origin[0].y;
    drawGuides(world, snapped.guides);
    for (const o of origin) {
      o.m.position = { x: Math.round(o.x + dx), y: Math.round(o.y + dy) };
      const me = elements.get(o.m.id);
      if (me) place(me, o.m);
    }
    drawEdgesOf(movers.map((m) => m.id));
  };
  const up = () => {
    removeEventListener("pointermove", move);
    document.documentElement.classList.remove("is-node-dragging");
    drawGuides(world, []);
    if (moved) api("POST", "/api/canvas/update", { updates: origin.map((o) => ({ id: o.m.id, position: o.m.position })) });
  };
  addEventListener("pointermove", move);
  addEventListener("pointerup", up, { once: true });
}

function startResize(ev, id) {
  const n = S.nodes.get(id);
  if (!n) return;
  ev.preventDefault();
  ev.stopPropagation();
  const w0 = n.size.width, h0 = n.size.height, sx = ev.clientX, sy = ev.clientY;
  document.documentElement.classList.add("is-node-resizing");
  let moved = false;
  const move = (e) => {
    moved = true;
    n.size = { width: Math.max(MIN_W, Math.round(w0 + (e.clientX - sx) / S.view.scale)),
      height: Math.max(MIN_H, Math.round(h0 + (e.clientY - sy) / S.view.scale)) };
    const me = elements.get(id);
    if (me) place(me, n);
    drawEdgesOf([id]);
  };
  const up = async () => {
    removeEventListener("pointermove", move);
    document.documentElement.classList.remove("is-node-resizing");
    if (!moved) return;
    await api("PATCH", "/api/canvas/node/" + encodeURIComponent(id), { data: { userResized: true } });
    api("POST", "/api/canvas/update", { updates: [{ id, size: n.size }] });
  };
  addEventListener("pointermove", move);
  addEventListener("pointerup", up, { once: true });
}

function toggleContextPin(id) {
  const pins = new Set(S.pins);
  if (pins.has(id)) pins.delete(id); else pins.add(id);
  setPins([...pins]);
  api("POST", "/api/canvas/context-pins", { nodeIds: [...pins] });
}

$(".context-pin-clear").addEventListener("click", () => {
  setPins([]);
  api("POST", "/api/canvas/context-pins", { nodeIds: [] });
});

function rename(id, titleEl) {
  const n = S.nodes.get(id);
  if (!n || titleEl.querySelector("input")) return;
  const input = el("input", { class: "node-title-input", value: titleOf(n) });
  titleEl.replaceChildren(input);
  input.focus();
  input.select();
  let done = false;
  const finish = (save) => {
    if (done) return;
    done = true;
    const value = input.value.trim();
    titleEl.textContent = save && value ? value : titleOf(n);
    if (save && value && value !== titleOf(n)) {
      api("PATCH", "/api/canvas/node/" + encodeURIComponent(id), { title: value });
    }
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") finish(true);
    if (e.key === "Escape") finish(false);
  });
  input.addEventListener("blur", () => finish(true));
}

setupAnnotations($(".annotation-tools"), {
  viewportEl, draft: $(".annotation-draft-layer"), toWorld, scale: () => S.view.scale,
  annotations: () => S.annotations, api,
});

applyTheme(document.documentElement.dataset.theme || "dark");
setupOverlay({ get: (id) => S.nodes.get(id), typeOf, title: titleOf, badge: (n) => TYPE_LABELS[n.type] || n.type,
  inContext: (id) => S.pins.has(id), toggleContext: toggleContextPin, raise });
openSync(streamHandlers, () => S.sessionId);
