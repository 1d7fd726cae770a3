// The trace renderer: one step of an execution trace as a pill — a status
// glyph, the tool in its category's colour, a one-line summary (the error
// in red) and the duration (web-client.md §5.10 trace).

import { html } from "./ui.js";
import { Icon } from "./icons.js";

const GLYPHS = { running: "spinner", success: "check", failed: "cross", error: "cross" };
const CATEGORIES = new Set(["mcp", "file", "subagent"]);
const MAX_SUMMARY = 30;

export const traceStatus = (d) => String(d.status || "").toLowerCase();

function duration(d) {
  if (d.duration) return String(d.duration);
  const ms = Number(d.durationMs);
  if (!Number.isFinite(ms) || ms <= 0) return "";
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

const clip = (s) => (s.length > MAX_SUMMARY ? s.slice(0, MAX_SUMMARY - 1) + "…" : s);

export function TraceBody({ node }) {
  const d = node.data || {};
  const status = traceStatus(d);
  const category = CATEGORIES.has(d.category) ? d.category : "other";
  const failed = status === "failed" || status === "error";
  const summary = String((failed && d.error) || d.resultSummary || d.summary || d.content || "");
  const time = duration(d);
  return html`<div class=${"trace-pill trace-" + (GLYPHS[status] ? status : "other")} title=${summary || undefined}>
    <span class="trace-glyph"><${Icon} name=${GLYPHS[status] || "ring"} /></span>
    <span class="trace-text">
      <span class=${"trace-tool category-" + category}>${String(d.toolName || d.title || "step")}</span>
      ${summary ? html`<span class=${"trace-summary" + (failed ? " trace-error" : "")}>${clip(summary)}</span>` : null}
    </span>
    ${time ? html`<span class="trace-duration">${time}</span>` : null}
  </div>`;
}
