// The updates feed and presence: who changed the board, and who is at it.
// It follows the tab's one event stream (sync.js, ?changes=1: one
// canvas-changes frame per commit, naming the writer's agent, and the
// tab's label ?client=, so the presence strip can tell the tabs apart).
// A commit that changed only the context pins sends a context-pins-changed
// frame instead, with its revision and agent. Presence itself is read from
// GET /api/canvas/presence: after each change, and every few seconds (tabs
// come and go without a frame).

import { signal } from "./ui.js";
import { api, tabLabel } from "./client.js";
import { listen } from "./sync.js";

export { tabLabel };

const FEED_MAX = 50;

// updates are the commits seen since the tab opened, newest first:
// {revision, agent, at, nodes:[{id, title, removed}], text, semantic}
// where semantic are what the commit meant (attention.js: "Relationship
// added", "Context updated", ...): [{kind, title, detail}].
export const updates = signal([]);

// presence is the last GET /api/canvas/presence reply.
export const presence = signal({ clients: [], agents: [], clientCount: 0 });

const titles = new Map(); // node id -> title, to name what a change touched

// nodeTitle is the title of node id as the stream last showed it (the id
// when the node is unknown).
export const nodeTitle = (id) => titles.get(id) || id;

const titleOf = (n) => n.title || n.data?.title || n.id;

function describe(d) {
  const nodes = [
    ...(d.nodes || []).map((n) => ({ id: n.id, title: titleOf(n), removed: false })),
    ...(d.removedNodes || []).map((id) => ({ id, title: titles.get(id) || id, removed: true })),
  ];
  const parts = [];
  const changed = nodes.filter((n) => !n.removed), removed = nodes.filter((n) => n.removed);
  const names = (list) => list.slice(0, 3).map((n) => "“" + n.title + "”").join(", ") + (list.length > 3 ? ` and ${list.length - 3} more` : "");
  if (changed.length) parts.push("changed " + names(changed));
  if (removed.length) parts.push("removed " + names(removed));
  const edges = (d.edges || []).length + (d.removedEdges || []).length;
  if (edges) parts.push(`${edges} ${edges === 1 ? "edge" : "edges"}`);
  const notes = (d.annotations || []).length + (d.removedAnnotations || []).length;
  if (notes) parts.push(`${notes} ${notes === 1 ? "annotation" : "annotations"}`);
  if (d.pins) parts.push("the context pins");
  if (d.viewport) parts.push("the view");
  if (d.theme) parts.push("the theme");
  return { nodes, text: parts.join("; ") || "changed the board" };
}

let presenceBusy = false;
async function refreshPresence() {
  if (presenceBusy) return;
  presenceBusy = true;
  try {
    const r = await api("GET", "/api/canvas/presence");
    if (r && r.ok) presence.value = await r.json();
  } finally {
    presenceBusy = false;
  }
}

// pending holds semantic entries that arrived before their commit's feed
// entry (annotate), by revision.
const pending = new Map();

// annotate gives the feed entry of a commit (by revision) what it meant.
export function annotate(revision, semantic) {
  if (!semantic.length) return;
  let found = false;
  const next = updates.value.map((u) => {
    if (u.revision !== revision) return u;
    found = true;
    return { ...u, semantic: [...(u.semantic || []), ...semantic] };
  });
  if (found) updates.value = next;
  else {
    pending.set(revision, [...(pending.get(revision) || []), ...semantic]);
    if (pending.size > FEED_MAX) pending.delete(pending.keys().next().value);
  }
}

// addUpdate puts a commit's entry at the top of the feed (replacing one
// of the same commit: a commit that removed a pinned node sends both its
// change and its pins).
function addUpdate(u) {
  const same = updates.value.find((x) => x.revision === u.revision);
  u.semantic = [...(same?.semantic || []), ...(pending.get(u.revision) || [])];
  pending.delete(u.revision);
  updates.value = [u, ...updates.value.filter((x) => x !== same)].slice(0, FEED_MAX);
  refreshPresence();
}

// subscribeUpdates follows the tab's stream; onAX runs on each AX frame,
// onConnect on each (re)connection.
export function subscribeUpdates({ onAX, onConnect }) {
  let open = false;
  const handlers = {
    status: (s) => { open = s === "connected"; },
    connected: () => { onConnect(); refreshPresence(); },
    "canvas-layout-update": (d) => {
      for (const n of d.layout?.nodes || []) titles.set(n.id, titleOf(n));
    },
    "canvas-changes": (d) => {
      const { nodes, text } = describe(d);
      for (const n of nodes) if (!n.removed) titles.set(n.id, n.title);
      addUpdate({ revision: d.revision, agent: d.agent || "", at: d.timestamp, nodes, text });
    },
    // A commit that changed only the pins (the connect burst's frame has
    // no revision: it is the state, not a change).
    "context-pins-changed": (d) => {
      if (typeof d.revision !== "number" || updates.value.some((u) => u.revision === d.revision)) return;
      addUpdate({ revision: d.revision, agent: d.agent || "", at: d.timestamp, nodes: [], text: "changed the context pins" });
    },
  };
  for (const name of ["ax-state-changed", "ax-event-created", "ax-interaction"]) handlers[name] = onAX;
  listen(handlers);
  // Only while the stream is open: a server that is down would only log.
  setInterval(() => { if (open) refreshPresence(); }, 4000);
}
