// The renderer of each node type: a component per type (node-*.js) that
// draws a node's body from its data. mountBody draws (or redraws, in
// place: Preact keeps a frame that is already there) a body into the
// card's body element; unmountBody runs its components' clean-ups.

import { html, render } from "./ui.js";
import { MarkdownBody } from "./node-markdown.js";
import { StatusBody } from "./node-status.js";
import { ContextBody } from "./node-context.js";
import { LedgerBody } from "./node-ledger.js";
import { TraceBody } from "./node-trace.js";
import { FileBody } from "./node-file.js";
import { ImageBody } from "./node-image.js";
import { WebpageBody } from "./node-webpage.js";
import { SurfaceFrame } from "./node-frame.js";
import { DiffBody } from "./node-diff.js";
import { GroupBody } from "./node-group.js";
import { AppBody } from "./node-app.js";
import { PromptBody, ResponseBody } from "./node-prompt.js";

// RENDERERS: the body component of each node type. An html primitive is
// stored as an html node; a web artifact is an mcp-app node.
export const RENDERERS = {
  markdown: MarkdownBody, status: StatusBody, context: ContextBody, ledger: LedgerBody, trace: TraceBody,
  file: FileBody, image: ImageBody, webpage: WebpageBody, diff: DiffBody, group: GroupBody, "mcp-app": AppBody,
  html: SurfaceFrame, "json-render": SurfaceFrame, graph: SurfaceFrame, mermaid: SurfaceFrame,
  prompt: PromptBody, response: ResponseBody,
};

// expanded: drawn in the focus overlay (overlay.js), not on a card.
export function NodeBody({ node, typeOf, expanded = false }) {
  const Body = RENDERERS[node.type];
  if (!Body) return html`<div class="node-empty">Unknown node type</div>`;
  return html`<${Body} node=${node} typeOf=${typeOf} expanded=${expanded} />`;
}

// mountBody draws node's body into el; typeOf(id) is another node's type
// (a group names its members' types).
export function mountBody(el, node, typeOf) {
  render(html`<${NodeBody} key=${node.type} node=${node} typeOf=${typeOf} />`, el);
}

export function unmountBody(el) {
  render(null, el);
}
