// The markdown renderer: the note's text as the server renders it
// (sanitised HTML), plain text until that arrives.

import { html } from "./ui.js";
import { useMarkdown } from "./markdown.js";

export function MarkdownBody({ node }) {
  const d = node.data || {};
  const src = String(d.content ?? d.text ?? "");
  const rendered = useMarkdown(src);
  if (!src) return html`<div class="node-empty">Empty node</div>`;
  return html`
    ${d.reviewActive ? html`<div class="md-review-banner">Review active</div>` : null}
    ${rendered === null
      ? html`<div class="md-pending">${src}</div>`
      : html`<div class="md-rendered" dangerouslySetInnerHTML=${{ __html: rendered }}></div>`}`;
}
