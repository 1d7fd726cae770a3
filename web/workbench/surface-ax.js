// The parent side of an html surface's AX bridge (web-client.md §18). A
// sandboxed html node whose AX capabilities are on gets window.PMX_AX from
// the server (content/surface): PMX_AX.emit(type, payload) posts
// {source:"pmx-canvas-ax", token, nodeId, correlationId, interaction} to
// this page, which sends it to POST /api/canvas/ax/interaction as the node
// (sourceSurface html-node, the node's server-issued surface token) and
// answers {source:"pmx-canvas-ax-ack", token, correlationId, interaction,
// result} with the server's reply, accepted or refused. After AX changes
// (ax-state-changed, ax-event-created; 150 ms debounced) the page pushes
// the board's surface snapshot to every such frame as
// {source:"pmx-canvas-html-node", type:"ax-update", token, state}.
// A message counts only from the frame's own window with the frame's own
// nonce, and a frame acts only as its own node: the server checks the
// node's capabilities and token.

import { useEffect } from "./ui.js";
import { api } from "./client.js";
import { listen } from "./sync.js";

const frames = new Set(); // {el, nodeId, token}
const nodeTokens = new Map(); // node id -> Promise<string>

// call is a quiet api request with its JSON reply: a refusal is the
// surface's to handle, not a page error.
async function call(method, path, body) {
  const res = await api(method, path, body, { quiet: true });
  if (!res) return { status: 0, data: { ok: false, status: 503, code: "unreachable", error: "The server is unreachable." } };
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  return { status: res.status, data };
}

function surfaceToken(nodeId) {
  if (!nodeTokens.has(nodeId)) {
    nodeTokens.set(nodeId, call("GET", "/api/canvas/ax/surface-token?nodeId=" + encodeURIComponent(nodeId))
      .then((r) => r.data?.token || ""));
  }
  return nodeTokens.get(nodeId);
}

// interact sends one emitted interaction as its node; a stale token (the
// server restarted) is fetched again once.
async function interact(f, m) {
  const send = async () => call("POST", "/api/canvas/ax/interaction", {
    type: String(m.interaction?.type ?? ""), payload: m.interaction?.payload ?? {},
    sourceNodeId: f.nodeId, sourceSurface: "html-node", surfaceToken: await surfaceToken(f.nodeId),
    correlationId: typeof m.correlationId === "string" ? m.correlationId : undefined,
  });
  let r = await send();
  if (r.data?.code === "invalid-surface-token") {
    nodeTokens.delete(f.nodeId);
    r = await send();
  }
  const result = r.data && typeof r.data === "object" ? r.data
    : { ok: false, status: r.status || 502, code: "bad-reply", error: "The server's reply was not JSON." };
  if (result.ok !== true && result.status === undefined) result.status = r.status;
  f.el.contentWindow?.postMessage({ source: "pmx-canvas-ax-ack", token: f.token, correlationId: m.correlationId,
    interaction: { type: m.interaction?.type }, result }, "*");
}

addEventListener("message", (e) => {
  const m = e.data;
  if (!m || typeof m !== "object" || m.source !== "pmx-canvas-ax") return;
  for (const f of frames) {
    if (e.source !== f.el.contentWindow || m.token !== f.token || m.nodeId !== f.nodeId) continue;
    interact(f, m);
    return;
  }
});

let pushTimer = 0;
async function push() {
  pushTimer = 0;
  if (frames.size === 0) return;
  const r = await call("GET", "/api/canvas/ax/surface-snapshot");
  if (!r.data || r.status !== 200) return;
  for (const f of frames) {
    f.el.contentWindow?.postMessage({ source: "pmx-canvas-html-node", type: "ax-update", token: f.token, state: r.data }, "*");
  }
}
const schedule = () => { if (frames.size && !pushTimer) pushTimer = setTimeout(push, 150); };
listen({ "ax-state-changed": schedule, "ax-event-created": schedule });

// useSurfaceAX connects the frame ref's iframe, showing node nodeId with
// the AX nonce token, to the bridge while it is mounted (on is false for
// frames that are not html surfaces).
export function useSurfaceAX(ref, nodeId, token, on) {
  useEffect(() => {
    if (!on || !ref.current) return undefined;
    const f = { el: ref.current, nodeId, token };
    frames.add(f);
    return () => frames.delete(f);
  }, [on, nodeId, token]);
}
