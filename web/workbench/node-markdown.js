// The markdown renderer: the note's text as the server renders it
// (sanitised HTML), plain text until that arrives.

import { html } from "./ui.js";
import { useMarkdown } from "./markdown.js";

// On a card an Edit button opens the focus overlay's editor (overlay.js).
export function MarkdownBody({ node, expanded }) {
  const d = node.data || {};
  const src = String(d.content ?? d.text ?? "");
  const rendered = useMarkdown(src);
  const edit = expanded ? null : html`<button type="button" class="md-edit-btn" title="Edit" aria-label="Edit"
    onClick=${(e) => { e.stopPropagation(); e.currentTarget.dispatchEvent(new CustomEvent("pmx-expand", { bubbles: true, detail: { id: node.id, edit: true } })); }}>Edit</button>`;
  if (!src) return html`${edit}<div class="node-empty">Empty node</div>`;
  return html`${edit}
    ${d.reviewActive ? html`<div class="md-review-banner">Review active</div>` : null}
    ${rendered === null
      ? html`<div class="md-pending">${src}</div>`
      : html`<div class="md-rendered" dangerouslySetInnerHTML=${{ __html: rendered }}></div>`}`;
}
