// The prompt and response renderers (web-client.md §5.10 prompt,
// response). A prompt node is a thread: data.turns ({role: user |
// assistant, text, status}) and data.threadStatus. Without turns it is a
// draft: a textarea "Ask the agent something…" sent with Ctrl/⌘+Enter or
// Send as the thread's first question (POST /api/canvas/prompt with
// threadNodeId = the node). With turns it shows the conversation ("You" /
// "PMX"; the agent's text rendered by the server, /api/render), a status
// footer and, once answered, a Reply box. The question reaches agents as
// steering of kind "prompt"; their answer streams in through
// POST /api/canvas/prompt/:nodeId/response, which updates the node.

import { html, useState, useRef, useEffect } from "./ui.js";
import { api } from "./client.js";
import { useMarkdown } from "./markdown.js";

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || "");

// fresh are the drafts this page just created: their composer takes the
// focus when it first appears, so the human can type at once.
const fresh = new Set();
const SEND_HINT = (isMac ? "⌘" : "Ctrl") + "+Enter to send";

// ask sends text to the thread of node id; it resolves to an error text
// or "" on success.
async function ask(id, text) {
  const res = await api("POST", "/api/canvas/prompt", { text, threadNodeId: id });
  if (res && res.ok) return "";
  if (!res) return "The server is unreachable.";
  try { return (await res.json()).error || `Failed (${res.status})`; } catch { return `Failed (${res.status})`; }
}

// Composer is a textarea with a send button: Ctrl/⌘+Enter or the button
// sends; a failure keeps the text and shows the error.
function Composer({ id, placeholder, button, badge }) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const area = useRef(null);
  useEffect(() => {
    if (fresh.delete(id) && area.current) area.current.focus();
  }, []);
  const send = async () => {
    const t = text.trim();
    if (!t || busy) return;
    setBusy(true); setError("");
    const err = await ask(id, t);
    setBusy(false);
    if (err) { setError(err); return; }
    setText("");
  };
  const keydown = (e) => {
    e.stopPropagation(); // the board's keys stay out of the textarea
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); }
  };
  return html`<form class="prompt-composer" onSubmit=${(e) => { e.preventDefault(); send(); }}
      onPointerDown=${(e) => e.stopPropagation()}>
    ${badge}
    ${error ? html`<div class="prompt-error" role="alert">${error}</div>` : null}
    <textarea ref=${area} class="prompt-input" placeholder=${placeholder} aria-label=${placeholder} value=${text} disabled=${busy}
      onInput=${(e) => setText(e.currentTarget.value)} onKeyDown=${keydown}></textarea>
    <div class="prompt-composer-row">
      <span class="prompt-hint">${busy ? "Sending…" : SEND_HINT}</span>
      <button type="submit" class="prompt-send" disabled=${busy || !text.trim()}>${button}</button>
    </div>
  </form>`;
}

// useThrottled is value, updated at most every ms while on (a streamed
// answer changes with every piece; each new source is one /api/render).
function useThrottled(value, ms, on) {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (!on) { setShown(value); return undefined; }
    const t = setTimeout(() => { last.current = Date.now(); setShown(value); }, Math.max(0, last.current + ms - Date.now()));
    return () => clearTimeout(t);
  }, [value, on]);
  return on ? shown : value;
}

// AgentText is an assistant turn's text as the server renders it
// (re-rendered at most every 400 ms while it streams).
function AgentText({ text, streaming }) {
  const rendered = useMarkdown(useThrottled(text, 400, streaming));
  return html`<div class=${"prompt-turn-text" + (streaming ? " streaming" : "")}>
    ${rendered === null
      ? html`<div class="md-pending">${text}</div>`
      : html`<div class="md-rendered" dangerouslySetInnerHTML=${{ __html: rendered }}></div>`}
    ${streaming ? html`<span class="prompt-cursor" aria-hidden="true"></span>` : null}
  </div>`;
}

function Turn({ turn }) {
  const agent = turn.role === "assistant";
  const streaming = agent && turn.status === "streaming";
  return html`<div class=${"prompt-turn " + (agent ? "turn-agent" : "turn-user")} data-status=${String(turn.status || "")}>
    <div class="prompt-turn-head"><span class=${"prompt-dot" + (streaming ? " pulsing" : "")}></span>${agent ? "PMX" : "You"}</div>
    ${agent
      ? html`<${AgentText} text=${String(turn.text || "")} streaming=${streaming} />`
      : html`<div class="prompt-turn-text">${String(turn.text || "")}</div>`}
    ${turn.error ? html`<div class="prompt-error">${String(turn.error)}</div>` : null}
  </div>`;
}

const STATUS_TEXT = { pending: "Waiting for the agent…", streaming: "Streaming…", answered: "Answered", error: "Failed" };

export function PromptBody({ node }) {
  const d = node.data || {};
  const turns = Array.isArray(d.turns) ? d.turns : [];
  const ctx = Array.isArray(d.contextNodeIds) ? d.contextNodeIds.length : 0;
  const badge = ctx > 0 ? html`<div class="prompt-context">✦ ${ctx} context node${ctx === 1 ? "" : "s"} attached</div>` : null;
  if (turns.length === 0) {
    return html`<div class="prompt-node prompt-draft">
      <${Composer} id=${node.id} placeholder="Ask the agent something…" button="Send" badge=${badge} />
    </div>`;
  }
  const status = String(d.threadStatus || d.status || "pending");
  const open = status === "answered" || status === "error";
  return html`<div class="prompt-node prompt-thread">
    ${badge}
    <div class="prompt-turns">${turns.map((t, i) => html`<${Turn} key=${i} turn=${t} />`)}</div>
    <div class="prompt-footer"><span class=${"prompt-status status-" + status}>${STATUS_TEXT[status] || status}</span>
      <span class="prompt-count">${turns.length} ${turns.length === 1 ? "turn" : "turns"}</span></div>
    ${open ? html`<${Composer} id=${node.id} placeholder="Reply…" button="Reply" />` : null}
  </div>`;
}

// ResponseBody is the legacy response node: the agent's answer to a
// prompt (data.content, data.status streaming | complete). Its Reply asks
// in the prompt's thread (the reference's button sent an empty prompt and
// did nothing, a quirk).
export function ResponseBody({ node }) {
  const d = node.data || {};
  const [replying, setReplying] = useState(false);
  const streaming = d.status === "streaming";
  const thread = d.promptNodeId ? String(d.promptNodeId) : "";
  return html`<div class="prompt-node response-node">
    ${streaming ? html`<div class="response-bar"></div>` : null}
    <${AgentText} text=${String(d.content || d.text || "")} streaming=${streaming} />
    <div class="prompt-footer"><span class="prompt-status">${streaming ? "Streaming…" : "Complete"}</span>
      ${thread && !replying ? html`<button type="button" class="prompt-send" onClick=${(e) => { e.stopPropagation(); setReplying(true); }}>Reply</button>` : null}</div>
    ${replying ? html`<${Composer} id=${thread} placeholder="Reply…" button="Reply" />` : null}
  </div>`;
}

// promptActions are the palette items that start a prompt centred on
// where(): a draft prompt node (batch node.add, the only way to create the
// internal type) whose composer asks the first question. (The board's
// menu keeps the reference's items, web-client.md §9.2.)
export function promptActions(where) {
  return [{
    label: "Ask the agent", badge: "ASK",
    run: async () => {
      const p = where();
      const res = await api("POST", "/api/canvas/batch", { operations: [{ op: "node.add",
        args: { type: "prompt", title: "Prompt", x: Math.round(p.x - 260), y: Math.round(p.y - 200), width: 520, height: 400 } }] });
      if (!res || !res.ok) return;
      const id = ((await res.json()).results || [])[0]?.id;
      if (id && !document.querySelector(`.canvas-node[data-node-id="${CSS.escape(id)}"] .prompt-draft`)) fresh.add(id);
      else if (id) document.querySelector(`.canvas-node[data-node-id="${CSS.escape(id)}"] .prompt-input`)?.focus();
    },
  }];
}
