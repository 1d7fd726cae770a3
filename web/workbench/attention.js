// The attention layer (web-client.md §15): what the board's changes mean,
// read in the page from the stream's node-level changes, and where the
// agents' attention is.
//
// - The focus field, inside the world behind the cards: the context-pinned
//   nodes (primary, a strong halo), for each pin the ≤ 5 nearest unpinned
//   nodes whose centres are within 600 px (secondary, a faint halo), and a
//   soft region around each pin and its neighbours. Hidden while a card is
//   dragged (the field follows the commit).
// - Change events from each commit the board applies: relationships added,
//   items removed, a group created or updated, a moved node that joined or
//   left a cluster (nodes whose edge-to-edge gap is ≤ 200 px) or a pin's
//   neighbourhood, the context pins changed. Each becomes a toast (one at
//   a time, queued; a click opens the updates feed), a 900 ms pulse on the
//   cards involved, and the meaning of that commit's entry in the feed
//   (axfeed.js). An event identical to one of the last 1.2 s is dropped.
//
// A connection's first layout and its pins only seed the state: pins that
// were there when the page loaded are not news (the reference toasts
// "Context updated" on every load, web-client.md §25 quirk 4).

import { listen } from "./sync.js";
import { annotate } from "./axfeed.js";
import { showUpdates } from "./axpanel.js";

const NEIGHBOURS = 5, NEAR = 600, CLUSTER_GAP = 200, CLUSTER_CAP = 400;
// A commit that moves more than MOVES_READ nodes (an arrange, a layout) is
// not read node by node for clusters: it is not one node's move.
const MOVES_READ = 50;
// At most QUEUE_MAX toasts wait; a burst of commits drops its oldest.
const QUEUE_MAX = 4;
const PULSE_MS = 900, DEDUP_MS = 1200;
const CELL = 512;

// ---- the state the stream shows (values copied: the board moves its own
// node objects while a card is dragged) ----

const nodes = new Map(); // id -> {id, type, title, x, y, w, h, docked, children}
const edges = new Map(); // id -> {from, to}
let pins = new Set();
const grid = new Map(); // cell "i,j" -> Set of ids (board nodes that take part in clusters and neighbourhoods)

const titleOf = (n) => (n.data && n.data.title) || n.title || n.type || n.id;
const quote = (id) => "“" + (nodes.get(id)?.title || id) + "”";

function infoOf(n) {
  return {
    id: n.id, type: n.type, title: titleOf(n),
    x: n.position?.x ?? 0, y: n.position?.y ?? 0, w: n.size?.width ?? 0, h: n.size?.height ?? 0,
    docked: n.dockPosition === "left" || n.dockPosition === "right",
    children: n.type === "group" ? [...((n.data && n.data.children) || [])].sort().join("\n") : "",
  };
}

// spatial: the node is placed in space (the board, not a group's frame).
const spatial = (i) => !i.docked && i.type !== "group";

function* cells(x0, y0, x1, y1) {
  for (let i = Math.floor(x0 / CELL); i <= Math.floor(x1 / CELL); i++) {
    for (let j = Math.floor(y0 / CELL); j <= Math.floor(y1 / CELL); j++) yield i + "," + j;
  }
}

function gridPut(i) {
  if (!spatial(i)) return;
  for (const k of cells(i.x, i.y, i.x + i.w, i.y + i.h)) {
    let s = grid.get(k);
    if (!s) grid.set(k, (s = new Set()));
    s.add(i.id);
  }
}

function gridDrop(i) {
  if (!spatial(i)) return;
  for (const k of cells(i.x, i.y, i.x + i.w, i.y + i.h)) {
    const s = grid.get(k);
    if (s) { s.delete(i.id); if (!s.size) grid.delete(k); }
  }
}

function query(x0, y0, x1, y1) {
  const out = new Set();
  for (const k of cells(x0, y0, x1, y1)) for (const id of grid.get(k) || []) out.add(id);
  return out;
}

function putNode(n) {
  const old = nodes.get(n.id);
  if (old) gridDrop(old);
  const i = infoOf(n);
  nodes.set(n.id, i);
  gridPut(i);
}

function dropNode(id) {
  const old = nodes.get(id);
  if (old) gridDrop(old);
  nodes.delete(id);
}

const gap = (a, b) => Math.hypot(Math.max(0, Math.max(a.x, b.x) - Math.min(a.x + a.w, b.x + b.w)),
  Math.max(0, Math.max(a.y, b.y) - Math.min(a.y + a.h, b.y + b.h)));

// clusterOf is the other nodes of id's cluster: those joined to it by a
// chain of gaps of at most CLUSTER_GAP (capped: a board that is one
// cluster is not walked whole).
function clusterOf(id) {
  const seen = new Set([id]), queue = [id];
  while (queue.length && seen.size < CLUSTER_CAP) {
    const a = nodes.get(queue.pop());
    for (const o of query(a.x - CLUSTER_GAP, a.y - CLUSTER_GAP, a.x + a.w + CLUSTER_GAP, a.y + a.h + CLUSTER_GAP)) {
      if (seen.has(o)) continue;
      if (gap(a, nodes.get(o)) <= CLUSTER_GAP) { seen.add(o); queue.push(o); }
    }
  }
  seen.delete(id);
  return seen;
}

const centre = (i) => ({ x: i.x + i.w / 2, y: i.y + i.h / 2 });

// neighbourhoods maps each pin on the board to its ≤ NEIGHBOURS nearest
// unpinned nodes with centres within NEAR, nearest first.
function neighbourhoods() {
  const out = new Map();
  for (const id of pins) {
    const p = nodes.get(id);
    if (!p || p.docked) continue; // a docked widget is not on the board
    const c = centre(p), near = [];
    for (const o of query(c.x - NEAR, c.y - NEAR, c.x + NEAR, c.y + NEAR)) {
      if (pins.has(o)) continue;
      const q = centre(nodes.get(o)), d = Math.hypot(q.x - c.x, q.y - c.y);
      if (d <= NEAR) near.push([d, o]);
    }
    near.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    out.set(id, near.slice(0, NEIGHBOURS).map((x) => x[1]));
  }
  return out;
}

// ---- reading a commit ----

const names = (ids, max = 3) => ids.slice(0, max).map(quote).join(", ") + (ids.length > max ? ` and ${ids.length - max} more` : "");
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// pinEvent is the context event of a change of the pins to next (null when
// they did not change).
function pinEvent(next) {
  const added = [...next].filter((id) => !pins.has(id)), removed = [...pins].filter((id) => !next.has(id));
  if (!added.length && !removed.length) return null;
  const parts = [];
  if (added.length) parts.push("Now in focus: " + names(added));
  if (removed.length) parts.push("Removed from focus: " + names(removed));
  return { kind: "context", title: "Context updated", detail: parts.join(" · "), nodes: [...added, ...removed] };
}

// readChanges derives the events of one canvas-changes frame and applies
// it to the state.
function readChanges(d) {
  const events = [];
  const added = (d.edges || []).filter((e) => !edges.has(e.id));
  const goneNodes = (d.removedNodes || []).filter((id) => nodes.has(id));
  const goneEdges = (d.removedEdges || []).filter((id) => edges.has(id));
  const moved = [];
  for (const n of d.nodes || []) {
    const old = nodes.get(n.id);
    if (!old || !spatial(old) || n.dockPosition === "left" || n.dockPosition === "right") continue;
    if (old.x !== n.position?.x || old.y !== n.position?.y) moved.push(n.id);
  }
  // Before: the moved nodes' clusters, the pins' neighbourhoods.
  const readMoves = moved.length <= MOVES_READ;
  const clustersBefore = new Map(readMoves ? moved.map((id) => [id, clusterOf(id)]) : []);
  const hoodsBefore = moved.length ? neighbourhoods() : null;
  // Names of what is removed are read while it is still known.
  if (goneNodes.length || goneEdges.length) {
    const parts = [];
    if (goneNodes.length) parts.push(names(goneNodes));
    if (goneEdges.length) parts.push(plural(goneEdges.length, "relationship", "relationships"));
    const ends = new Set();
    for (const id of goneEdges) for (const end of [edges.get(id).from, edges.get(id).to]) ends.add(end);
    events.push({ kind: "remove", title: "Items removed", detail: parts.join(" and "),
      nodes: [...ends].filter((id) => !goneNodes.includes(id)) });
  }
  const groups = [];
  for (const n of d.nodes || []) {
    if (n.type !== "group") continue;
    const old = nodes.get(n.id), children = infoOf(n).children;
    if (!old || old.children !== children) groups.push({ id: n.id, created: !old, children: (n.data && n.data.children) || [] });
  }

  // Apply.
  for (const n of d.nodes || []) putNode(n);
  for (const id of d.removedNodes || []) dropNode(id);
  for (const e of d.edges || []) edges.set(e.id, { from: e.from, to: e.to });
  for (const id of d.removedEdges || []) edges.delete(id);

  if (added.length) {
    const pairs = added.slice(0, 2).map((e) => quote(e.from) + " → " + quote(e.to)).join(", ");
    events.push({ kind: "relationship", title: added.length === 1 ? "Relationship added" : plural(added.length, "relationship", "relationships") + " added",
      detail: pairs + (added.length > 2 ? ` and ${added.length - 2} more` : ""), nodes: added.flatMap((e) => [e.from, e.to]) });
  }
  for (const g of groups) {
    events.push({ kind: "group", title: g.created ? "Group created" : "Group updated",
      detail: quote(g.id) + " · " + plural(g.children.length, "item", "items"), nodes: [g.id, ...g.children] });
  }
  if (moved.length) {
    // A moved node that joined or left a cluster.
    for (const id of readMoves ? moved : []) {
      const before = clustersBefore.get(id), after = clusterOf(id);
      const joined = [...after].filter((o) => !before.has(o)), left = [...before].filter((o) => !after.has(o));
      if (!joined.length && !left.length) continue;
      const formed = before.size === 0 && after.size > 0;
      const detail = joined.length ? quote(id) + " joined " + names(joined) : quote(id) + " left " + names(left);
      events.push({ kind: "cluster", title: formed ? "Cluster formed" : "Cluster changed", detail,
        nodes: [id, ...joined.slice(0, 8), ...left.slice(0, 8)] });
    }
    // A moved node (or pin) that entered or left a pin's neighbourhood.
    const hoodsAfter = neighbourhoods(), movedSet = new Set(moved);
    for (const [pin, after] of hoodsAfter) {
      const before = hoodsBefore.get(pin);
      if (!before) continue;
      const entered = after.filter((o) => !before.includes(o) && (movedSet.has(o) || movedSet.has(pin)));
      const left = before.filter((o) => !after.includes(o) && (movedSet.has(o) || movedSet.has(pin)));
      if (!entered.length && !left.length) continue;
      const parts = [];
      if (entered.length) parts.push(names(entered) + " entered " + quote(pin) + "’s neighborhood");
      if (left.length) parts.push(names(left) + " left " + quote(pin) + "’s neighborhood");
      events.push({ kind: "neighborhood", title: "Neighborhood changed", detail: parts.join(" · "), nodes: [pin, ...entered, ...left] });
    }
  }
  if (Array.isArray(d.pins)) {
    const ev = pinEvent(new Set(d.pins));
    if (ev) events.push(ev);
    pins = new Set(d.pins);
  }
  return events;
}

// ---- what the human sees ----

let ui = null; // {field, toasts, element(id)}

// emit shows a commit's events: toasts, pulses, the feed's entry.
const recent = new Map(); // event key -> when it was last shown
function emit(events, revision) {
  const now = performance.now();
  for (const [k, t] of recent) if (now - t > DEDUP_MS) recent.delete(k);
  const fresh = events.filter((ev) => {
    const key = ev.kind + "\n" + ev.title + "\n" + ev.detail;
    if (recent.has(key)) return false;
    recent.set(key, now);
    return true;
  });
  if (!fresh.length) return;
  if (typeof revision === "number") annotate(revision, fresh.map(({ kind, title, detail }) => ({ kind, title, detail })));
  for (const ev of fresh) {
    queueToast(ev);
    pulse(ev.nodes);
  }
}

const pulseTimers = new Map();
function pulse(ids) {
  for (const id of new Set(ids)) {
    const e = ui.element(id);
    if (!e) continue; // culled: nothing to see
    clearTimeout(pulseTimers.get(id));
    e.classList.remove("attention-pulse");
    void e.offsetWidth; // restart the animation
    e.classList.add("attention-pulse");
    pulseTimers.set(id, setTimeout(() => { pulseTimers.delete(id); ui.element(id)?.classList.remove("attention-pulse"); }, PULSE_MS));
  }
}

// toastMs is how long a toast shows: longer for a longer detail.
export const toastMs = (detail) => Math.min(2800, Math.max(1800, 1600 + 18 * (detail || "").length));

const queue = [];
let showing = null;
function queueToast(ev) {
  queue.push(ev);
  if (queue.length > QUEUE_MAX) queue.shift();
  if (!showing) nextToast();
}

function nextToast() {
  ui.toasts.replaceChildren();
  showing = queue.shift() || null;
  if (!showing) return;
  const ev = showing;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "attention-toast";
  b.dataset.kind = ev.kind;
  b.title = ev.detail;
  b.setAttribute("aria-label", ev.title + (ev.detail ? ": " + ev.detail : "") + " (open the updates)");
  const dot = document.createElement("span");
  dot.className = "attention-dot";
  const title = document.createElement("span");
  title.className = "attention-title";
  title.textContent = ev.title;
  b.append(dot, title);
  b.addEventListener("click", () => {
    showUpdates();
    clearTimeout(timer);
    nextToast();
  });
  ui.toasts.append(b);
  const timer = setTimeout(() => { if (showing === ev) nextToast(); }, toastMs(ev.detail));
}

// drawField redraws the focus field from the pins and their neighbourhoods.
function drawField() {
  const out = [];
  const box = (cls, i, pad, extra = {}) => {
    const e = document.createElement("div");
    e.className = cls;
    Object.assign(e.dataset, extra);
    e.style.left = i.x - pad.x + "px";
    e.style.top = i.y - pad.y + "px";
    e.style.width = i.w + 2 * pad.x + "px";
    e.style.height = i.h + 2 * pad.y + "px";
    out.push(e);
  };
  const hoods = neighbourhoods(), secondary = new Set();
  for (const [pin, near] of hoods) {
    const all = [pin, ...near].map((id) => nodes.get(id));
    const x0 = Math.min(...all.map((i) => i.x)), y0 = Math.min(...all.map((i) => i.y));
    const x1 = Math.max(...all.map((i) => i.x + i.w)), y1 = Math.max(...all.map((i) => i.y + i.h));
    box("focus-region", { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, { x: 54, y: 46 }, { pin });
    for (const id of near) secondary.add(id);
  }
  for (const id of secondary) box("focus-halo focus-secondary", nodes.get(id), { x: 18, y: 18 }, { nodeId: id });
  for (const pin of hoods.keys()) box("focus-halo focus-primary", nodes.get(pin), { x: 24, y: 24 }, { nodeId: pin });
  ui.field.replaceChildren(...out);
  ui.field.hidden = out.length === 0;
}

// setupAttention puts the focus field first in the world and the toast
// slot in root, and follows the tab's stream. element(id) is a node's card
// (undefined when it has none).
export function setupAttention({ world, root, element }) {
  const field = document.createElement("div");
  field.className = "focus-field";
  field.setAttribute("aria-hidden", "true");
  field.hidden = true;
  world.prepend(field);
  const toasts = document.createElement("div");
  toasts.className = "attention-toasts";
  toasts.setAttribute("role", "status");
  toasts.setAttribute("aria-live", "polite");
  root.append(toasts);
  ui = { field, toasts, element };

  listen({
    // A whole layout (a connection's first, a resync) seeds the state.
    "canvas-layout-update": (d) => {
      const layout = d.layout || {};
      nodes.clear();
      grid.clear();
      edges.clear();
      for (const n of layout.nodes || []) putNode(n);
      for (const e of layout.edges || []) edges.set(e.id, { from: e.from, to: e.to });
      drawField();
    },
    "canvas-changes": (d) => {
      emit(readChanges(d), d.revision);
      drawField();
    },
    // The connect burst's pins (no revision) are the state; a commit's
    // (with its revision) are a change.
    "context-pins-changed": (d) => {
      const next = new Set(d.nodeIds || []);
      if (typeof d.revision === "number") {
        const ev = pinEvent(next);
        pins = next;
        if (ev) emit([ev], d.revision);
      } else pins = next;
      drawField();
    },
  });
}
