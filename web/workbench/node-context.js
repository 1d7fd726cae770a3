// The context renderer: token use (when the host reports a limit), the
// context cards an agent host loaded (state, category, scope chips), the
// reference tabs, or the node's own text (web-client.md §5.10 context).

import { html } from "./ui.js";
import { useMarkdown } from "./markdown.js";

const k = (n) => (n >= 1000 ? (n / 1000).toFixed(1) + "k" : String(n));

function TokenUsage({ d }) {
  const limit = Number(d.tokenLimit), used = Number(d.currentTokens) || 0;
  if (!(limit > 0)) return null;
  const ratio = Math.min(1, used / limit);
  const tone = ratio >= 0.95 ? "danger" : ratio >= 0.7 ? "warn" : "accent";
  const messages = Number(d.messagesLength);
  return html`<div class="context-usage">
    <div class="context-heading">Token usage</div>
    <div class="context-bar"><div class=${"context-bar-fill tone-" + tone} style=${{ width: (ratio * 100).toFixed(1) + "%" }}></div></div>
    <div class="context-usage-text">${Math.round(ratio * 100)}% — ${k(used)} / ${k(limit)} tokens${Number.isFinite(messages) ? ` · ${messages} messages` : ""}</div>
  </div>`;
}

const CATEGORY = { profile: "Operator", planning: "Product", memory: "Product", tooling: "Tooling" };
const STATE = { loaded: "Loaded", missing: "Missing", stale: "Stale", invalid: "Invalid" };

function Card({ c }) {
  const chips = [STATE[c.state], CATEGORY[c.category], c.sourceKind === "global" ? "Global" : c.sourceKind === "workspace" ? "Workspace" : null,
    c.required ? "Required" : null].filter(Boolean);
  return html`<div class=${"context-card" + (c.state ? " state-" + c.state : "")}>
    <div class="context-card-title">${String(c.label || c.title || c.key || "Context")}</div>
    <div class="context-card-summary">${String(c.summary || "Available in startup context.")}</div>
    ${c.path ? html`<div class="context-card-path">${String(c.path)}</div>` : null}
    ${chips.length ? html`<div class="context-chips">${chips.map((t) => html`<span class="chip">${t}</span>`)}</div>` : null}
  </div>`;
}

function OwnText({ d }) {
  const src = String(d.content ?? "");
  const rendered = useMarkdown(src);
  if (!src) return null;
  return rendered === null ? html`<div class="md-pending">${src}</div>`
    : html`<div class="md-rendered" dangerouslySetInnerHTML=${{ __html: rendered }}></div>`;
}

export function ContextBody({ node }) {
  const d = node.data || {};
  const cards = Array.isArray(d.cards) ? d.cards : [];
  const refs = Array.isArray(d.auxTabs) ? d.auxTabs : [];
  const hasOwn = !!(d.content || d.path);
  return html`<div class="context-node">
    <${TokenUsage} d=${d} />
    ${cards.length ? html`<div class="context-heading">Context (${cards.length})</div>${cards.map((c) => html`<${Card} c=${c} />`)}` : null}
    ${refs.length ? html`<div class="context-heading">References (${refs.length})</div>
      <ul class="context-refs">${refs.map((r) => html`<li>${String(r.title || r.label || r.url || r.path || r.id || "")}</li>`)}</ul>` : null}
    ${!cards.length && hasOwn ? html`<div class="context-card"><${OwnText} d=${d} />
      ${d.path ? html`<div class="context-card-path">${String(d.path)}</div>` : null}</div>` : null}
    ${!cards.length && !refs.length && !hasOwn && !(Number(d.tokenLimit) > 0) ? html`<div class="node-empty">No context loaded</div>` : null}
  </div>`;
}
