// The trace controls of the action bar (web-client.md §3.1): "Enable
// trace" / "Disable trace" (aria-pressed, purple while on) and "Clear
// trace" (shown while the trace is on or trace pills exist). Both send a
// workbench intent (POST /api/workbench/intent) and wait for the stream's
// trace-state frame, which is the one source of the state: a fresh
// connection starts off, and the server sends trace-state on connect while
// the trace is on (the reference does not, so a reload showed it off).

import { api } from "./client.js";
import { iconHTML } from "./icons.js";

let enabled = false;
let traces = 0;
let bar = null;
let onChange = () => {};

// mountTrace puts the two buttons at the start of the action bar; changed
// is called when the state changes (the counts text follows it).
export function mountTrace(actionBar, changed) {
  onChange = changed;
  bar = document.createElement("span");
  bar.className = "trace-tools";
  bar.innerHTML = `<button type="button" class="trace-toggle" aria-pressed="false">${iconHTML("type-trace")}</button>` +
    `<button type="button" class="trace-clear" aria-label="Clear trace" title="Clear trace" hidden>${iconHTML("cross")}</button>` +
    `<span class="toolbar-sep"></span>`;
  actionBar.prepend(bar);
  bar.querySelector(".trace-toggle").addEventListener("click", (ev) => {
    ev.stopPropagation();
    api("POST", "/api/workbench/intent?_ts=" + Date.now(), { type: "trace-toggle", payload: { enabled: !enabled } });
  });
  bar.querySelector(".trace-clear").addEventListener("click", (ev) => {
    ev.stopPropagation();
    api("POST", "/api/workbench/intent?_ts=" + Date.now(), { type: "trace-clear" });
  });
  draw();
}

function draw() {
  if (!bar) return;
  const t = bar.querySelector(".trace-toggle");
  const label = enabled ? "Disable trace" : "Enable trace";
  t.setAttribute("aria-label", label);
  t.title = label;
  t.setAttribute("aria-pressed", String(enabled));
  t.classList.toggle("active", enabled);
  bar.querySelector(".trace-clear").hidden = !(enabled || traces > 0);
}

// traceState takes a trace-state frame.
export function traceState(d) {
  const next = d.enabled === true;
  if (next === enabled) return;
  enabled = next;
  draw();
  onChange();
}

// traceReset: a fresh connection (not a resume) starts with the trace off
// until the server says otherwise.
export function traceReset() { traceState({ enabled: false }); }

// traceCounts is the counts text's trace part for n trace nodes:
// " · K trace(s)", " · trace armed" while on with none, else "".
export function traceCounts(n) {
  if (n !== traces) { traces = n; draw(); }
  if (n > 0) return ` · ${n} ${n === 1 ? "trace" : "traces"}`;
  return enabled ? " · trace armed" : "";
}
