// The updates feed and presence: who changed the board, and who is at it.
// It opens its own lightweight subscription to the canvas's event stream
// with ?changes=1 (one canvas-changes frame per commit, naming the writer's
// agent) and ?client=<this tab's label>, so the presence strip can tell
// the tabs apart; the board's own sync (app.js) is a separate stream.
// Presence itself is read from GET /api/canvas/presence: after each change,
// and every few seconds (tabs come and go without a frame).

import { signal } from "./ui.js";
import { api, apiURL, token } from "./client.js";

const FEED_MAX = 50;

// tabLabel names this tab in presence: workbench:<random id>.
export const tabLabel = "workbench:" + Math.random().toString(36).slice(2, 8);

// updates are the commits seen since the tab opened, newest first:
// {revision, agent, at, nodes:[{id, title, removed}], text}.
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

// subscribeUpdates opens the stream; onAX runs on each AX frame, onConnect
// on each (re)connection.
export function subscribeUpdates({ onAX, onConnect }) {
  const q = new URLSearchParams({ changes: "1", client: tabLabel });
  if (token) q.set("token", token);
  const es = new EventSource(apiURL("/api/workbench/events?" + q));
  const on = (name, fn) => es.addEventListener(name, (e) => {
    let d;
    try { d = JSON.parse(e.data); } catch { return; }
    fn(d);
  });
  on("connected", () => { onConnect(); refreshPresence(); });
  on("canvas-layout-update", (d) => {
    for (const n of d.layout?.nodes || []) titles.set(n.id, titleOf(n));
  });
  on("canvas-changes", (d) => {
    const { nodes, text } = describe(d);
    for (const n of nodes) if (!n.removed) titles.set(n.id, n.title);
    updates.value = [{ revision: d.revision, agent: d.agent || "", at: d.timestamp, nodes, text },
      ...updates.value].slice(0, FEED_MAX);
    refreshPresence();
  });
  for (const name of ["ax-state-changed", "ax-event-created", "ax-interaction"]) on(name, onAX);
  // Only while the stream is open: a server that is down would only log.
  setInterval(() => { if (es.readyState === EventSource.OPEN) refreshPresence(); }, 4000);
}
