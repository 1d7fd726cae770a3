// The group renderer: how many nodes the frame holds and of which types,
// in the group's colour (the frame itself is drawn by its card: a dashed
// border in --group-color), or a hint when it is empty (web-client.md §7).

import { html } from "./ui.js";

// groupSummary is "2 markdown, 1 graph" for the members' types.
export function groupSummary(types) {
  const counts = new Map();
  for (const t of types) counts.set(t, (counts.get(t) || 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${t}`).join(", ");
}

export function GroupBody({ node, typeOf }) {
  const children = (node.data && node.data.children) || [];
  if (children.length === 0) {
    return html`<div class="group-body"><span class="group-count">0 nodes</span>
      <div class="group-hint">Drag nodes here or use the selection bar to group nodes</div></div>`;
  }
  const types = children.map((id) => typeOf(id)).filter(Boolean);
  return html`<div class="group-body"><span class="group-count">${children.length} ${children.length === 1 ? "node" : "nodes"}</span>
    <span class="group-types">${groupSummary(types)}</span></div>`;
}
