// The status renderer: a phase dot and the phase (pulsing unless idle), the
// detail, the active tool, a running subagent and the message in its
// level's colour (web-client.md §5.10 status).

import { html } from "./ui.js";
import { Icon } from "./icons.js";

// PHASE_TONES: the colour of each phase; other phases are accent.
const PHASE_TONES = {
  idle: "muted", running: "accent", drafting: "accent", tooling: "accent",
  planning: "purple", thinking: "purple", review: "ok",
  "waiting-approval": "warn", waiting: "warn-alt",
};

export const phaseOf = (d) => String(d.phase || d.content || d.status || "idle");

// phaseTone is the colour class of a phase.
export const phaseTone = (phase) => PHASE_TONES[phase.toLowerCase()] || "accent";

// DockedStatus is a docked status's one-line summary beside the toolbar.
export function DockedStatus({ node }) {
  const d = node.data || {};
  const phase = phaseOf(d), tone = phaseTone(phase);
  return html`<span class="docked-status">
    <span class=${"status-phase-dot tone-" + tone + (phase.toLowerCase() === "idle" ? "" : " pulsing")}></span>
    <span class=${"status-phase tone-" + tone}>${phase}</span>
    ${d.activeTool ? html`<span class="status-tool"><${Icon} name="gear" /> ${String(d.activeTool)}</span>` : null}
  </span>`;
}

export function StatusBody({ node }) {
  const d = node.data || {};
  const phase = phaseOf(d);
  const tone = phaseTone(phase);
  const sub = d.subagent && typeof d.subagent === "object" ? d.subagent : d.subagent ? { name: d.subagent, state: d.subagentState } : null;
  const level = d.level === "warn" || d.level === "error" ? d.level : "info";
  return html`<div class="status-node">
    <div class="status-phase-row">
      <span class=${"status-phase-dot tone-" + tone + (phase.toLowerCase() === "idle" ? "" : " pulsing")}></span>
      <span class=${"status-phase tone-" + tone}>${phase}</span>
      ${d.detail ? html`<span class="status-detail">${String(d.detail)}</span>` : null}
    </div>
    ${d.activeTool ? html`<div class="status-tool"><${Icon} name="gear" /> ${String(d.activeTool)}</div>` : null}
    ${sub && sub.name && sub.state !== "completed"
      ? html`<div class="status-subagent"><${Icon} name="subagent" /> ${String(sub.name)}${sub.state ? ` (${sub.state})` : ""}</div>` : null}
    ${d.message ? html`<div class=${"status-message level-" + level}>${String(d.message)}</div>` : null}
  </div>`;
}
