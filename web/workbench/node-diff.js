// The diff renderer: the files of a unified diff (the server parses it into
// data.diff), each with its status, path and counts, and its hunks with
// old/new line numbers and added, removed and context lines coloured.

import { html } from "./ui.js";

const STATUS = { added: "A", deleted: "D", modified: "M", renamed: "R", copied: "C" };
const SIGN = { add: "+", remove: "-", context: " " };

function Hunk({ h }) {
  const head = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.section ? " " + h.section : ""}`;
  return html`<div class="diff-hunk">
    <div class="diff-hunk-header">${head}</div>
    ${(h.lines || []).map((l) => html`<div class=${"diff-line diff-" + (SIGN[l.kind] ? l.kind : "context")}>
      <span class="diff-num">${l.old ?? ""}</span><span class="diff-num">${l.new ?? ""}</span>
      <span class="diff-sign">${SIGN[l.kind] ?? " "}</span><span class="diff-text">${String(l.text ?? "")}</span></div>`)}
  </div>`;
}

function File({ f }) {
  const path = f.oldPath && f.newPath && f.oldPath !== f.newPath ? `${f.oldPath} → ${f.newPath}` : f.newPath || f.oldPath || "";
  return html`<div class="diff-file">
    <div class="diff-file-header">
      <span class=${"chip diff-status status-" + (f.status || "modified")}>${STATUS[f.status] || "M"}</span>
      <span class="diff-path">${path}</span>
      <span class="diff-counts"><span class="diff-adds">+${f.additions || 0}</span> <span class="diff-dels">−${f.deletions || 0}</span></span>
    </div>
    ${f.binary ? html`<div class="node-empty">Binary file</div>` : (f.hunks || []).map((h) => html`<${Hunk} h=${h} />`)}
  </div>`;
}

export function DiffBody({ node }) {
  const d = node.data || {};
  const files = (d.diff && Array.isArray(d.diff.files)) ? d.diff.files : [];
  if (!files.length) {
    return d.content ? html`<pre class="diff-raw">${String(d.content)}</pre>` : html`<div class="node-empty">Empty diff</div>`;
  }
  const s = d.diff.stats || {};
  return html`<div class="diff-node">
    <div class="diff-stats">${s.files ?? files.length} ${(s.files ?? files.length) === 1 ? "file" : "files"} changed,
      <span class="diff-adds">+${s.additions ?? 0}</span> <span class="diff-dels">−${s.deletions ?? 0}</span></div>
    ${files.map((f) => html`<${File} f=${f} />`)}
  </div>`;
}
