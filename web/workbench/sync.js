// The page's subscription to its canvas's event stream, incremental:
// GET /api/workbench/events?changes=1 sends the whole layout once per
// connection and then one canvas-changes frame per commit (the nodes,
// edges and annotations it touched). The stream keeps the canvas's
// revision; a change whose baseRevision is not the revision the page holds
// means a commit was missed, and the page resyncs with a fresh connection
// (a full layout). A dropped connection (an error, the server restarting)
// reconnects with the last event number it saw (the server replays what
// was missed, or sends a fresh layout when it cannot) after an exponential
// backoff with jitter, without reloading the page.
//
// It is the tab's only stream: labelled with the tab's name (?client=, for
// presence), and fanned out to every module of the page that follows the
// canvas (listen): the board (app.js, through openSync's handlers), the
// updates feed and the AX panel (axfeed.js), the attention layer.

import { canvasId, token, tabLabel } from "./client.js";

// The events whose frames carry the canvas revision they leave behind.
const REVISION_EVENTS = ["connected", "mcp-app-host-snapshot", "canvas-layout-update", "canvas-changes",
  "canvas-viewport-update", "context-pins-changed", "theme-changed", "canvas-focus-node",
  "ax-state-changed", "ax-event-created", "ax-interaction"];

// listeners are the page's other modules that follow the stream (listen).
const listeners = new Set();

// listen adds handlers {eventName(d), status(s)} that see the frames the
// board applies, after the board: "connected", "canvas-layout-update" (a
// whole layout: a fresh connection's, a resync's), "canvas-changes" (only
// the changes applied, in order, none twice), and any other event. Add
// them before openSync (an event name no handler had at connect time is
// listened for from the next connection). Returns a function that removes
// them.
export function listen(handlers) {
  listeners.add(handlers);
  return () => listeners.delete(handlers);
}

function fan(name, d) {
  for (const l of listeners) {
    if (!l[name]) continue;
    try { l[name](d); } catch (err) { console.error("stream listener", name, err); }
  }
}

const BACKOFF_MIN = 250, BACKOFF_MAX = 4000;

// backoff is the wait before reconnect attempt n (1, 2, ...): doubling from
// BACKOFF_MIN up to BACKOFF_MAX, each a random 50–100 % of that so tabs
// that lost the same server do not come back in step.
export function backoff(n) {
  const ceiling = Math.min(BACKOFF_MAX, BACKOFF_MIN * 2 ** Math.max(0, n - 1));
  return ceiling * (0.5 + Math.random() / 2);
}

// openSync connects and keeps the page connected. on: {status(s) —
// "connecting" | "syncing" | "connected" | "reconnecting"; connected(d);
// layout(layout) — a whole layout, replacing the page's; changes(d) — one
// commit's changes, in order; and any other event name → handler(d)}.
// sessionId() is the session to ask to resume. Returns {resync()}.
export function openSync(on, sessionId) {
  const status = (s) => { on.status(s); fan("status", s); };
  let es = null, lastEventId = "", revision = null, retries = 0, timer = 0;
  let advanced = null; // {from, to}: the last revision step a frame other than a change made
  const state = { synced: false };

  const connect = (resume) => {
    clearTimeout(timer);
    if (es) es.close();
    const q = new URLSearchParams({ changes: "1", client: tabLabel });
    if (canvasId) q.set("canvas", canvasId);
    if (token) q.set("token", token);
    if (sessionId()) q.set("session", sessionId());
    // A new EventSource does not send Last-Event-ID itself; the query
    // parameter is the same request.
    if (resume && lastEventId !== "") q.set("lastEventId", lastEventId);
    else { revision = null; advanced = null; state.synced = false; }
    const src = es = new EventSource("/api/workbench/events?" + q);
    status(state.synced ? "reconnecting" : "connecting");

    const handle = (name, e) => {
      if (src !== es) return; // a frame of a connection given up
      let d;
      try { d = JSON.parse(e.data); } catch (err) { console.error("bad event", name, err); return; }
      if (e.lastEventId !== "") lastEventId = e.lastEventId;
      switch (name) {
        case "connected":
          retries = 0;
          // A resumed connection replays what was missed; the page keeps
          // what it has. Otherwise a full layout follows.
          if (!d.resumed) { state.synced = false; revision = null; advanced = null; }
          on.connected(d);
          fan(name, d);
          status(state.synced ? "connected" : "syncing");
          break;
        case "canvas-layout-update":
          state.synced = true;
          on.layout(d.layout || {});
          fan(name, d);
          status("connected");
          revision = d.revision ?? (d.layout && d.layout.revision) ?? revision;
          advanced = null;
          return;
        case "canvas-changes":
          if (!state.synced) return;
          // A commit can send another frame (its viewport) just before its
          // change, with the same revision: then the change's base is the
          // revision before that frame.
          if (revision !== null && d.baseRevision !== revision &&
            !(d.revision === revision && advanced && advanced.to === revision && d.baseRevision === advanced.from)) {
            if (typeof d.revision === "number" && d.revision < revision) return; // seen already
            console.warn("missed a commit: revision", revision, "change from", d.baseRevision, "- resyncing");
            connect(false);
            return;
          }
          on.changes(d);
          fan(name, d);
          break;
        default:
          if (on[name]) on[name](d);
          fan(name, d);
      }
      if (typeof d.revision === "number" && d.revision !== revision) {
        advanced = name === "canvas-changes" ? null : { from: revision, to: d.revision };
        revision = d.revision;
      }
    };
    const names = new Set([...REVISION_EVENTS, ...Object.keys(on)]);
    for (const l of listeners) for (const name of Object.keys(l)) names.add(name);
    for (const name of names) {
      if (name === "status") continue;
      src.addEventListener(name, (e) => handle(name, e));
    }
    src.onerror = () => {
      if (src !== es) return;
      src.close();
      es = null;
      status(state.synced ? "reconnecting" : "connecting");
      retries++;
      timer = setTimeout(() => connect(true), backoff(retries));
    };
  };

  connect(false);
  return {
    resync: () => connect(false),
    revision: () => revision,
    lastEventId: () => lastEventId,
  };
}
