// The file renderer: a header (language chip, path, line count, when it
// was read, mark-as-evidence and reload) over the file — its lines with a
// line-number gutter, a CSV/TSV file as a table (data.table), a PDF in a
// frame of its bytes (data.fileUrl) — from what the server read
// (data.fileContent; web-client.md §5.10 file).

import { html, useState } from "./ui.js";
import { Icon } from "./icons.js";
import { api, apiURL, nodePath } from "./client.js";

const LANGUAGES = {
  typescript: "TypeScript", tsx: "TSX", javascript: "JavaScript", jsx: "JSX", go: "Go", "go-mod": "Go module",
  python: "Python", rust: "Rust", ruby: "Ruby", java: "Java", kotlin: "Kotlin", swift: "Swift", c: "C", cpp: "C++",
  csharp: "C#", php: "PHP", shell: "Shell", sql: "SQL", markdown: "Markdown", json: "JSON", yaml: "YAML",
  toml: "TOML", xml: "XML", html: "HTML", css: "CSS", csv: "CSV", tsv: "TSV", text: "Text", pdf: "PDF", diff: "Diff",
};

const baseName = (p) => String(p).split(/[\\/]/).pop();

export function languageLabel(d) {
  if (d.language) return LANGUAGES[d.language] || String(d.language).toUpperCase();
  const ext = /\.([A-Za-z0-9]+)$/.exec(baseName(d.path || ""));
  return ext ? ext[1].toUpperCase() : "Text";
}

// fileLines are the file's lines (a final newline ends the last line; it
// does not start another).
export function fileLines(text) {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

const when = (iso) => {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? new Date(t).toLocaleTimeString() : "";
};

function Header({ node, lineCount }) {
  const d = node.data || {};
  const [busy, setBusy] = useState(false);
  const path = String(d.path || "");
  const reload = async () => {
    setBusy(true);
    await api("POST", nodePath(node.id, "/refresh"), {});
    setBusy(false);
  };
  const evidence = () => api("POST", "/api/canvas/ax/evidence",
    { kind: "file", title: baseName(path) || "file", ref: path, nodeIds: [node.id], source: "browser" });
  return html`<div class="file-header">
    <span class="chip file-language">${languageLabel(d)}</span>
    <span class="file-path" title=${path}><bdi>${path}</bdi></span>
    ${lineCount !== null ? html`<span class="file-meta file-line-count">${lineCount} ${lineCount === 1 ? "line" : "lines"}</span>` : null}
    ${d.updatedAt ? html`<span class="file-meta file-time">${when(d.updatedAt)}</span>` : null}
    <button type="button" class="file-evidence" title="Mark this file as AX evidence" aria-label="Mark this file as AX evidence"
      onClick=${(e) => { e.stopPropagation(); evidence(); }}><${Icon} name="evidence" /></button>
    <button type="button" class="file-reload" title="Reload file" aria-label="Reload file" disabled=${busy}
      onClick=${(e) => { e.stopPropagation(); reload(); }}><${Icon} name="refresh" /></button>
  </div>`;
}

function Table({ table }) {
  const cols = Array.isArray(table.columns) ? table.columns : [];
  const rows = Array.isArray(table.rows) ? table.rows : [];
  const total = Number(table.rowCount) || rows.length;
  return html`<div class="file-table-wrap"><table class="file-table">
    <thead><tr>${cols.map((c) => html`<th>${String(c)}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${r.map((v) => html`<td>${String(v)}</td>`)}</tr>`)}</tbody>
  </table>${total > rows.length ? html`<div class="file-meta">Showing ${rows.length} of ${total} rows</div>` : null}</div>`;
}

function Code({ lines }) {
  // Two text blocks side by side, not an element per line: a 2 MiB file
  // stays cheap to draw.
  const gutter = lines.map((_, i) => i + 1).join("\n");
  return html`<div class="file-code">
    <pre class="file-gutter" aria-hidden="true">${gutter}</pre>
    <pre class="file-text">${lines.join("\n")}</pre>
  </div>`;
}

export function FileBody({ node }) {
  const d = node.data || {};
  const text = typeof d.fileContent === "string" ? d.fileContent : null;
  const pdf = d.mimeType === "application/pdf" && d.fileUrl;
  const lines = text !== null && !pdf && !d.table ? fileLines(text) : null;
  let body;
  if (d.missing) body = html`<div class="node-banner warn">The file is missing: ${String(d.path || "")}</div>`;
  else if (pdf) body = html`<iframe class="file-pdf-frame" src=${apiURL(d.fileUrl)} title=${baseName(d.path || "PDF")}></iframe>`;
  else if (d.table) body = html`<${Table} table=${d.table} />`;
  else if (lines) body = html`<${Code} lines=${lines} />`;
  else body = html`<div class="node-empty">No preview of this file</div>`;
  const count = lines ? lines.length : d.table ? (Number(d.table.rowCount) || 0) + 1 : text !== null ? fileLines(text).length : null;
  return html`<div class="file-node"><${Header} node=${node} lineCount=${count} />${body}</div>`;
}
