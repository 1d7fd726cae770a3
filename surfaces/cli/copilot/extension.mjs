// pmx-canvas extension for GitHub Copilot CLI (installed by
// `pmx-canvas copilot install-extension`). It gives Copilot a few tools
// over the running pmx-canvas server's HTTP API: read the board and what
// the human pinned, leave a note, and ask the human to approve a step and
// wait for the decision. The server is PMX_CANVAS_URL, else
// http://127.0.0.1:$PMX_CANVAS_PORT (default 4313); PMX_CANVAS_TOKEN is
// sent as a bearer token when set.
import { joinSession } from "@github/copilot-sdk/extension";

const base = (process.env.PMX_CANVAS_URL || `http://127.0.0.1:${process.env.PMX_CANVAS_PORT || 4313}`).replace(/\/+$/, "");

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json", "X-PMX-Source": "copilot" };
  if (process.env.PMX_CANVAS_TOKEN) headers.Authorization = `Bearer ${process.env.PMX_CANVAS_TOKEN}`;
  let res;
  try {
    res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error(`Cannot reach pmx-canvas at ${base} (${err.message}); start it with: pmx-canvas serve`);
  }
  const text = await res.text();
  let out;
  try { out = JSON.parse(text); } catch { out = { text }; }
  if (!res.ok) throw new Error(out.error || `pmx-canvas answered ${res.status}`);
  return out;
}

const show = (v) => JSON.stringify(v, null, 2);

export const tools = [
  {
    name: "pmx_canvas_board",
    description: "The pmx-canvas board the human watches: a summary, every node (id, kind, title, box), the edges, the nodes pinned as context and the approvals waiting on the human.",
    parameters: { type: "object", properties: {} },
    handler: async () => show(await api("GET", "/api/canvas/board")),
  },
  {
    name: "pmx_canvas_pinned_context",
    description: "The nodes the human pinned on the pmx-canvas board as context for you: their text, the edges between them and nearby nodes.",
    parameters: { type: "object", properties: {} },
    handler: async () => show(await api("GET", "/api/canvas/pinned-context")),
  },
  {
    name: "pmx_canvas_add_note",
    description: "Put a markdown note on the pmx-canvas board for the human (a plan, a finding, a summary). Returns the new node's id.",
    parameters: {
      type: "object",
      properties: { title: { type: "string", description: "Note title." }, content: { type: "string", description: "Markdown text." } },
      required: ["content"],
    },
    handler: async (args) => {
      const node = await api("POST", "/api/canvas/node", { type: "markdown", title: args.title, content: args.content });
      return show({ ok: true, id: node.id });
    },
  },
  {
    name: "pmx_canvas_request_approval",
    description: "Ask the human to approve a step on the pmx-canvas board and wait (up to timeoutMs, default 120000) for the decision. Returns the gate with its status: approved, rejected, or still pending.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string", description: "What needs approval." },
        detail: { type: "string", description: "Why, and what happens next." },
        timeoutMs: { type: "number", description: "How long to wait for the decision, in ms (at most 120000)." },
      },
      required: ["title"],
    },
    handler: async (args) => {
      const created = await api("POST", "/api/canvas/ax/approval", { title: args.title, detail: args.detail, source: "copilot" });
      const id = created.approvalGate.id;
      const wait = Math.min(Math.max(Number(args.timeoutMs ?? 120000), 0), 120000);
      const gate = await api("GET", `/api/canvas/ax/approval/${encodeURIComponent(id)}?waitMs=${wait}`);
      return show(gate);
    },
  },
];

await joinSession({ tools });
