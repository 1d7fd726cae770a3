// The AX panel: the human's side of the AX layer. Agents open gates
// (approvals, elicitations, mode requests) and wait on them; here the human
// sees them, decides, and the decision releases the agent's parked await at
// once. It also shows the work board, the timeline and steers agents.
//
// It acts like any surface: through POST /api/canvas/ax/interaction, as the
// workbench surface with the token the server issues for this canvas
// (GET /api/canvas/ax/surface-token?surface=workbench), so the tool policy
// and the ax-interaction frames apply, and every decision is recorded as the
// browser's. A pending gate cannot be missed: a badge on the toolbar button,
// a toast when one arrives, and the count in the tab title.
//
// The panel follows the tab's one event stream (sync.js, fanned out by
// axfeed.js).

import { html, render, signal, computed, effect, useEffect, useRef, useState } from "./ui.js";
import { api, agent as ownAgent } from "./client.js";
import { icon } from "./icons.js";
import { subscribeUpdates, updates, presence, tabLabel, nodeTitle } from "./axfeed.js";

const ax = signal({ approvalGates: [], elicitations: [], modeRequests: [], workItems: [] });
const timeline = signal({ events: [], evidence: [], steering: [] });
const open = signal(false);
const tab = signal("gates");
const toasts = signal([]);
const notice = signal(""); // the last refusal, shown in the panel

// pendingGates are the gates waiting for the human, oldest first.
const pendingGates = computed(() => {
  const s = ax.value;
  const rows = [
    ...(s.approvalGates || []).map((g) => ({ kind: "approval", g })),
    ...(s.elicitations || []).map((g) => ({ kind: "elicitation", g })),
    ...(s.modeRequests || []).map((g) => ({ kind: "mode", g })),
  ].filter((r) => r.g.status === "pending");
  return rows.sort((a, b) => (a.g.createdAt < b.g.createdAt ? -1 : 1));
});

// ---- talking to the server ----

let tokenPromise = null;
function workbenchToken() {
  tokenPromise ||= api("GET", "/api/canvas/ax/surface-token?surface=workbench")
    .then((r) => (r && r.ok ? r.json() : null))
    .then((b) => b?.token || "")
    .catch(() => "");
  return tokenPromise;
}

// interact sends one workbench interaction; a refusal is shown, not thrown.
async function interact(type, payload) {
  const surfaceToken = await workbenchToken();
  if (!surfaceToken) tokenPromise = null; // ask again next time
  const res = await api("POST", "/api/canvas/ax/interaction", { type, sourceSurface: "workbench", surfaceToken, payload });
  let body = null;
  try { body = res ? await res.json() : null; } catch { body = null; }
  if (!body || body.ok !== true) {
    notice.value = body?.error || "The server did not take it.";
    if (body?.code === "invalid-surface-token") tokenPromise = null;
    return false;
  }
  notice.value = "";
  refreshAX();
  return true;
}

// refreshAX reloads the AX state and timeline; calls during a reload
// coalesce into one more.
let loading = false, again = false, seen = null;
async function refreshAX() {
  if (loading) { again = true; return; }
  loading = true;
  try {
    const [s, t] = await Promise.all([
      api("GET", "/api/canvas/ax?includeContext=false"),
      api("GET", "/api/canvas/ax/timeline?limit=50"),
    ]);
    if (s && s.ok) ax.value = (await s.json()).state || ax.value;
    if (t && t.ok) timeline.value = await t.json();
    announce();
  } finally {
    loading = false;
    if (again) { again = false; refreshAX(); }
  }
}

// announce toasts the gates that arrived since the last look.
function announce() {
  const now = pendingGates.value;
  const fresh = seen ? now.filter((r) => !seen.has(r.g.id)) : now;
  seen = new Set(now.map((r) => r.g.id));
  if (fresh.length === 0) return;
  const text = fresh.length === 1
    ? `${kindLabel(fresh[0].kind)}: ${gateTitle(fresh[0])}`
    : `${fresh.length} agent requests are waiting for you`;
  const id = Math.random().toString(36).slice(2);
  toasts.value = [...toasts.value, { id, text }];
  setTimeout(() => { toasts.value = toasts.value.filter((t) => t.id !== id); }, 8000);
}

const kindLabel = (k) => ({ approval: "Approval requested", elicitation: "Question", mode: "Mode change requested" })[k];
const gateTitle = (r) => (r.kind === "approval" ? r.g.title : r.kind === "elicitation" ? r.g.prompt : `switch to ${r.g.mode}`);

function ago(ts) {
  const t = Date.parse(ts);
  if (!t) return "";
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  return `${Math.round(s / 3600)}h ago`;
}

// ---- components ----

function Icon({ name }) {
  const ref = useRef(null);
  useEffect(() => { ref.current.replaceChildren(icon(name)); }, [name]);
  return html`<span class="ax-icon" aria-hidden="true" ref=${ref}></span>`;
}

function Decide({ label, onDecide }) {
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const decide = async (decision) => {
    setBusy(true);
    const payloadNote = note.trim();
    await onDecide(decision, payloadNote);
    setBusy(false);
  };
  return html`<div class="ax-decide">
    <input class="ax-note" type="text" placeholder="Note (optional)" aria-label=${"Note for " + label}
      value=${note} onInput=${(e) => setNote(e.currentTarget.value)} />
    <button type="button" class="ax-approve" disabled=${busy} aria-label=${"Approve " + label}
      onClick=${() => decide("approved")}>Approve</button>
    <button type="button" class="ax-reject" disabled=${busy} aria-label=${"Reject " + label}
      onClick=${() => decide("rejected")}>Reject</button>
  </div>`;
}

function resolveWith(type, id) {
  return (decision, note) => interact(type, note ? { id, decision, resolution: note } : { id, decision });
}

function Approval({ g }) {
  return html`<li class="ax-gate" data-gate-id=${g.id} data-kind="approval">
    <div class="ax-gate-head"><span class="ax-chip">approval</span><strong>${g.title}</strong></div>
    ${g.detail && html`<p class="ax-detail">${g.detail}</p>`}
    ${g.action && html`<p class="ax-meta">action: <code>${g.action}</code></p>`}
    <p class="ax-meta">from ${g.source || "agent"} · ${ago(g.createdAt)}</p>
    <${Decide} label=${g.title} onDecide=${resolveWith("ax.approval.resolve", g.id)} />
  </li>`;
}

function Mode({ g }) {
  const label = "mode " + g.mode;
  return html`<li class="ax-gate" data-gate-id=${g.id} data-kind="mode">
    <div class="ax-gate-head"><span class="ax-chip">mode</span><strong>Switch to ${g.mode}</strong></div>
    ${g.reason && html`<p class="ax-detail">${g.reason}</p>`}
    <p class="ax-meta">from ${g.source || "agent"} · ${ago(g.createdAt)}</p>
    <${Decide} label=${label} onDecide=${resolveWith("ax.mode.resolve", g.id)} />
  </li>`;
}

// Elicitation is a form generated from the request's fields (one text box
// per field; a single answer box when it names none).
function Elicitation({ g }) {
  const fields = g.fields && g.fields.length ? g.fields : ["answer"];
  const [values, setValues] = useState({});
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    const response = {};
    for (const f of fields) response[f] = values[f] || "";
    await interact("ax.elicitation.respond", { id: g.id, response });
    setBusy(false);
  };
  return html`<li class="ax-gate" data-gate-id=${g.id} data-kind="elicitation">
    <div class="ax-gate-head"><span class="ax-chip">question</span><strong>${g.prompt}</strong></div>
    <p class="ax-meta">from ${g.source || "agent"} · ${ago(g.createdAt)}</p>
    <form class="ax-form" onSubmit=${submit}>
      ${fields.map((f) => html`<label class="ax-field">${f}
        <input type="text" name=${f} value=${values[f] || ""}
          onInput=${(e) => setValues({ ...values, [f]: e.currentTarget.value })} /></label>`)}
      <button type="submit" class="ax-answer" disabled=${busy} aria-label=${"Answer " + g.prompt}>Send answer</button>
    </form>
  </li>`;
}

function Gates() {
  const rows = pendingGates.value;
  const s = ax.value;
  const decided = [
    ...(s.approvalGates || []).map((g) => ({ kind: "approval", g })),
    ...(s.elicitations || []).map((g) => ({ kind: "elicitation", g })),
    ...(s.modeRequests || []).map((g) => ({ kind: "mode", g })),
  ].filter((r) => r.g.status !== "pending")
    .sort((a, b) => ((a.g.resolvedAt || "") < (b.g.resolvedAt || "") ? 1 : -1)).slice(0, 8);
  return html`<div class="ax-section">
    ${rows.length === 0 && html`<p class="ax-empty">Nothing is waiting for you.</p>`}
    <ul class="ax-list">
      ${rows.map((r) => r.kind === "approval" ? html`<${Approval} key=${r.g.id} g=${r.g} />`
        : r.kind === "mode" ? html`<${Mode} key=${r.g.id} g=${r.g} />` : html`<${Elicitation} key=${r.g.id} g=${r.g} />`)}
    </ul>
    ${decided.length > 0 && html`<h3 class="ax-subhead">Decided</h3>
      <ul class="ax-list ax-decided">${decided.map((r) => html`<li key=${r.g.id} data-gate-id=${r.g.id} class="ax-row">
        <span class=${"ax-chip ax-" + r.g.status}>${r.g.status}</span> ${gateTitle(r)}
        ${r.g.resolution && html` <em>“${r.g.resolution}”</em>`}
        <span class="ax-meta"> by ${r.g.resolvedBy || "?"}</span></li>`)}</ul>`}
  </div>`;
}

const STATUSES = ["todo", "in-progress", "blocked", "done", "cancelled"];

function Work() {
  const items = ax.value.workItems || [];
  if (items.length === 0) return html`<p class="ax-empty">No work items yet.</p>`;
  return html`<div class="ax-section">${STATUSES.map((st) => {
    const list = items.filter((w) => w.status === st);
    if (list.length === 0) return null;
    return html`<div class="ax-work-group" data-status=${st}><h3 class="ax-subhead">${st} (${list.length})</h3>
      <ul class="ax-list">${list.map((w) => html`<li key=${w.id} class="ax-row" data-work-id=${w.id}>
        <span class="ax-work-title">${w.title}</span>
        <select aria-label=${"Status of " + w.title} value=${w.status}
          onChange=${(e) => interact("ax.work.update", { id: w.id, status: e.currentTarget.value })}>
          ${STATUSES.map((o) => html`<option value=${o}>${o}</option>`)}
        </select></li>`)}</ul></div>`;
  })}</div>`;
}

function Timeline() {
  const t = timeline.value;
  const rows = [
    ...(t.events || []).map((e) => ({ id: e.id, kind: e.kind, text: e.summary, at: e.createdAt, by: e.source })),
    ...(t.evidence || []).map((e) => ({ id: e.id, kind: "evidence: " + e.kind, text: e.title, at: e.createdAt, by: e.source })),
    ...(t.steering || []).map((e) => ({ id: e.id, kind: "steering" + (e.to ? " → " + e.to : ""),
      text: e.message + (e.delivered ? " (delivered)" : ""), at: e.createdAt, by: e.source })),
  ].sort((a, b) => (a.at < b.at ? 1 : -1)).slice(0, 60);
  if (rows.length === 0) return html`<p class="ax-empty">The timeline is empty.</p>`;
  return html`<ul class="ax-list ax-timeline">${rows.map((r) => html`<li key=${r.id} class="ax-row" data-row-id=${r.id}>
    <span class="ax-chip">${r.kind}</span> <span class="ax-text">${r.text}</span>
    <span class="ax-meta"> ${r.by || ""} · ${ago(r.at)}</span></li>`)}</ul>`;
}

// Updates is the feed: who changed what, and what it meant (the
// attention layer's reading of the commit: a relationship added, the
// context changed, ...).
function Updates() {
  const rows = updates.value;
  if (rows.length === 0) return html`<p class="ax-empty">No changes since this tab opened.</p>`;
  return html`<ul class="ax-list ax-feed">${rows.map((u) => html`<li key=${u.revision} class="ax-row" data-revision=${u.revision}
      data-agent=${u.agent || ""}>
    <strong class="ax-agent">${u.agent || "unattributed"}</strong>${u.agent && u.agent === ownAgent ? " (this tab)" : ""} ${u.text}
    <span class="ax-meta"> · rev ${u.revision} · ${ago(u.at)}</span>
    ${(u.semantic || []).map((m) => html`<span class="ax-semantic" data-kind=${m.kind}>${m.title}${m.detail ? ": " + m.detail : ""}</span>`)}</li>`)}</ul>`;
}

// showUpdates opens the panel on the updates feed (an attention toast's
// click).
export function showUpdates() {
  open.value = true;
  tab.value = "updates";
}

// Presence names the tabs and agents at the canvas and what each touched.
function Presence() {
  const p = presence.value;
  const tabs = (p.clients || []).filter((c) => c.client.startsWith("workbench:"));
  const others = (p.clientCount || 0) - tabs.length;
  return html`<div class="ax-presence" aria-label="Who is here">
    <span class="ax-presence-item" data-presence="tabs">${tabs.length} ${tabs.length === 1 ? "tab" : "tabs"}
      ${tabs.map((c) => html`<span class="ax-tab-label" data-client=${c.client}
        title=${"connected " + ago(c.connectedAt)}>${c.client === tabLabel ? "this tab" : c.client.slice(10)}</span>`)}</span>
    ${others > 0 && html`<span class="ax-presence-item">${others} other ${others === 1 ? "stream" : "streams"}</span>`}
    ${(p.agents || []).map((a) => html`<span class="ax-presence-item ax-presence-agent" data-agent=${a.agent}
      title=${`${a.changes} changes, last at revision ${a.revision}`}>
      <${Icon} name="subagent" />${a.agent}
      <span class="ax-meta"> ${a.lastNodeId ? (a.lastRemoved ? "removed " : "touched ") + updatesTitle(a.lastNodeId) : "changed the board"} · ${ago(a.lastAt)}</span></span>`)}
  </div>`;
}

const updatesTitle = (id) => "“" + nodeTitle(id) + "”";

function Steer() {
  const [message, setMessage] = useState("");
  const [to, setTo] = useState("");
  const [sent, setSent] = useState("");
  const agents = (presence.value.agents || []).map((a) => a.agent);
  const submit = async (e) => {
    e.preventDefault();
    if (!message.trim()) return;
    const payload = { message: message.trim() };
    if (to.trim()) payload.to = to.trim();
    if (await interact("ax.steer", payload)) {
      // Clear only what was sent: the human may have typed on while the send was in flight.
      setMessage((m) => (m.trim() === payload.message ? "" : m));
      setSent(to.trim() ? `Sent to ${to.trim()}.` : "Sent to all agents.");
    }
  };
  return html`<form class="ax-steer" onSubmit=${submit}>
    <textarea aria-label="Steering message" placeholder="Steer the agents..." rows="2" value=${message}
      onInput=${(e) => setMessage(e.currentTarget.value)}
      onKeyDown=${(e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit(e); }}></textarea>
    <div class="ax-steer-row">
      <input type="text" aria-label="Deliver to agent (empty: all agents)" placeholder="To: all agents" list="ax-agents"
        value=${to} onInput=${(e) => setTo(e.currentTarget.value)} />
      <datalist id="ax-agents">${agents.map((a) => html`<option value=${a} />`)}</datalist>
      <button type="submit" class="ax-steer-send" disabled=${!message.trim()}>Send steering</button>
    </div>
    <span class="ax-meta" role="status">${sent}</span>
  </form>`;
}

const TABS = [["gates", "Decisions"], ["work", "Work"], ["timeline", "Timeline"], ["updates", "Updates"]];

// seenUpdates is the newest commit the human has looked at in the feed;
// unread counts the entries after it that carry a meaning (the attention
// layer's events), shown on the Updates tab (9+ at most).
const seenUpdates = signal(0);
const unread = computed(() => updates.value.filter((u) => u.revision > seenUpdates.value && u.semantic?.length).length);

function Panel({ onClose }) {
  const ref = useRef(null);
  useEffect(() => { ref.current.querySelector("button, input, textarea, select")?.focus(); }, []);
  // Tab moves between the panel's own controls (the board's Tab walks
  // nodes); Escape closes.
  const keys = (e) => {
    if (e.key === "Escape") { e.stopPropagation(); onClose(); return; }
    if (e.key !== "Tab") return;
    e.stopPropagation();
    const all = [...ref.current.querySelectorAll("button:not([disabled]), input, textarea, select, [tabindex='0']")];
    if (all.length === 0) return;
    const i = all.indexOf(document.activeElement);
    if (e.shiftKey && i <= 0) { e.preventDefault(); all[all.length - 1].focus(); }
    else if (!e.shiftKey && i === all.length - 1) { e.preventDefault(); all[0].focus(); }
  };
  const n = pendingGates.value.length;
  return html`<section class="ax-panel" role="dialog" aria-label="Agent panel" ref=${ref} onKeyDown=${keys}>
    <header class="ax-head"><strong>AGENTS</strong>
      <button type="button" class="ax-close" aria-label="Close agent panel" onClick=${onClose}><${Icon} name="cross" /></button></header>
    <${Presence} />
    <div class="ax-tabs" role="tablist" aria-label="Agent panel sections">
      ${TABS.map(([id, label]) => html`<button type="button" role="tab" aria-selected=${tab.value === id}
        class=${"ax-tab" + (tab.value === id ? " active" : "")} data-tab=${id} onClick=${() => { tab.value = id; }}
        aria-label=${id === "updates" ? (unread.value ? `Recent updates — ${unread.value} new` : "Recent updates") : undefined}>
        ${label}${id === "gates" && n > 0 ? ` (${n})` : ""}${id === "updates" && unread.value > 0 &&
          html`<span class="ax-unread" aria-hidden="true">${unread.value > 9 ? "9+" : unread.value}</span>`}</button>`)}
    </div>
    ${notice.value && html`<p class="ax-notice" role="alert">${notice.value}</p>`}
    <div class="ax-body" role="tabpanel" aria-label=${TABS.find((t) => t[0] === tab.value)[1]}>
      ${tab.value === "gates" ? html`<${Gates} />` : tab.value === "work" ? html`<${Work} />`
        : tab.value === "timeline" ? html`<${Timeline} />` : html`<${Updates} />`}
    </div>
    <${Steer} />
  </section>`;
}

function ToolbarButton() {
  const n = pendingGates.value.length;
  const label = n ? `Agent panel (${n} waiting for you)` : "Agent panel";
  return html`<button type="button" class=${"ax-toggle" + (open.value ? " active" : "") + (n ? " ax-attention" : "")}
    aria-label=${label} title=${label + " (Alt+A)"} aria-expanded=${open.value} data-action="ax-panel"
    onClick=${() => { open.value = !open.value; }}>
    <${Icon} name="subagent" />${n > 0 && html`<span class="ax-badge" aria-hidden="true">${n}</span>`}</button>`;
}

function Toasts() {
  return html`<div class="ax-toasts" role="status" aria-live="polite">${toasts.value.map((t) => html`<div key=${t.id} class="ax-toast">
    <span>${t.text}</span>
    <button type="button" onClick=${() => { open.value = true; tab.value = "gates"; toasts.value = toasts.value.filter((x) => x.id !== t.id); }}>Review</button>
  </div>`)}</div>`;
}

function Overlay() {
  const close = () => {
    open.value = false;
    document.querySelector(".ax-toggle")?.focus();
  };
  return html`${open.value && html`<${Panel} onClose=${close} />`}<${Toasts} />`;
}

// mountAX puts the panel's button in toolbar and its panel and toasts in
// the page, and starts following the canvas.
export function mountAX(toolbar) {
  const slot = document.createElement("span");
  slot.className = "ax-toolbar-slot";
  toolbar.append(slot);
  render(html`<${ToolbarButton} />`, slot);
  const layer = document.createElement("div");
  layer.className = "ax-layer";
  document.body.append(layer);
  render(html`<${Overlay} />`, layer);

  // The feed on screen is read.
  effect(() => {
    if (open.value && tab.value === "updates" && updates.value.length) seenUpdates.value = updates.value[0].revision;
  });
  const base = document.title;
  effect(() => {
    const n = pendingGates.value.length;
    document.title = n ? `(${n}) ${base}` : base;
  });
  addEventListener("keydown", (e) => {
    if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === "KeyA") {
      e.preventDefault();
      open.value = !open.value;
      if (!open.value) document.querySelector(".ax-toggle")?.focus();
    }
  });
  // A (re)connection may be to a restarted server, whose secret and so
  // whose workbench token are new: ask for the token again.
  subscribeUpdates({ onAX: refreshAX, onConnect: () => { tokenPromise = null; refreshAX(); } });
  refreshAX();
}
