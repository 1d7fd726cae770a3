// The ledger renderer: the log, one line per entry (real newlines and the
// two characters \n both split), then one row per other data key, its name
// humanised and its value right-aligned (web-client.md §5.10 ledger).

import { html } from "./ui.js";

// HIDDEN: data keys that are the node's own bookkeeping, not ledger rows.
const HIDDEN = new Set(["title", "__type", "content", "strictSize", "arrangeLocked", "parentGroup", "userResized"]);

export const humanise = (key) => key.replace(/[_-]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2")
  .replace(/^./, (c) => c.toUpperCase());

const valueText = (v) => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

export function LedgerBody({ node }) {
  const d = node.data || {};
  const lines = String(d.content ?? "").split(/\r?\n|\\n/).filter((l) => l.trim() !== "");
  const rows = Object.entries(d).filter(([k, v]) => !HIDDEN.has(k) && v !== undefined && v !== null);
  if (lines.length === 0 && rows.length === 0) return html`<div class="node-empty">No ledger data</div>`;
  return html`<div class="ledger-node">
    ${lines.length ? html`<div class="ledger-lines">${lines.map((l) => html`<div class="ledger-line">${l}</div>`)}</div>` : null}
    ${rows.length ? html`<dl class="ledger-rows">${rows.map(([k, v]) => html`<div class="ledger-row">
      <dt class="ledger-key">${humanise(k)}</dt><dd class="ledger-value">${valueText(v)}</dd></div>`)}</dl>` : null}
  </div>`;
}
