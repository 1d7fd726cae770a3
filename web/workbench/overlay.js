// The expanded (focus) overlay (web-client.md §13): one node at a time on
// a full-screen backdrop, drawn by its renderer with expanded=true, with
// the context pin, Copy, a word count and, for markdown, a source editor
// that saves (a workspace file through POST /api/file/save, the node's
// content through PATCH); a markdown note's document is itself editable
// (md-inline.js). An html surface opens as a site, a deck also in
// presentation mode (present.js). Clicking the backdrop, × or Esc closes it and
// focus goes back to where it was.
//
// app.js calls setupOverlay once with what the overlay needs of the
// board, openOverlay(id, {edit}) to open it and overlayUpdate(node) with
// every node it redraws; a renderer asks for it with a "pmx-expand" event.

import { html, render, useState, useEffect, useLayoutEffect, useRef, signal } from "./ui.js";
import { api, nodePath } from "./client.js";
import { NodeBody } from "./renderers.js";
import { useMarkdown } from "./markdown.js";
import { Icon } from "./icons.js";
import { InlineEditor } from "./md-inline.js";
import { sourceKey } from "./md-source-keys.js";
import { siteURL, openSite, isPresentation, openPresentation } from "./present.js";

let board = null; // {get(id), typeOf(id), title(n), badge(n), inContext(id), toggleContext(id), raise(id)}
const current = signal(null); // {node, edit} while open
let root = null;
let returnFocus = null;

export function setupOverlay(ctx) {
  board = ctx;
  root = document.createElement("div");
  root.className = "expanded-overlay-root";
  document.body.append(root);
  render(html`<${Overlay} />`, root);
  document.addEventListener("pmx-expand", (e) => openOverlay(e.detail.id, { edit: !!e.detail.edit }));
  // Esc closes the overlay before the board sees the key (capture phase).
  addEventListener("keydown", (e) => {
    // Escape in the format bar closes the bar only (md-format-bar.js).
    if (e.key === "Escape" && current.value && !e.target?.closest?.(".md-inline-format-bar")) { e.preventDefault(); e.stopImmediatePropagation(); closeOverlay(); }
  }, true);
}

export const overlayOpen = () => current.value !== null;

export function openOverlay(id, { edit = false } = {}) {
  const node = board && board.get(id);
  if (!node) return;
  if (!current.value) returnFocus = document.activeElement;
  board.raise(id);
  current.value = { node, edit: edit && editable(node) };
}

export function closeOverlay() {
  const c = current.value;
  if (!c) return;
  current.value = null;
  let back = returnFocus;
  returnFocus = null;
  // The control that opened it may have been redrawn meanwhile (the card's
  // buttons are rebuilt when its pin changes): then the same one on the
  // card, else the card.
  if (back && !back.isConnected && back.classList) {
    const card = document.querySelector(`.canvas-node[data-node-id="${CSS.escape(c.node.id)}"]`);
    const cls = [...back.classList].map((k) => "." + CSS.escape(k)).join("");
    back = (card && cls && card.querySelector(cls)) || card;
  }
  if (back && back.isConnected && typeof back.focus === "function") back.focus();
}

// overlayUpdate takes a node the board redrew (or null when it was
// removed, with its id).
export function overlayUpdate(n, removedId) {
  const c = current.value;
  if (!c) return;
  if (n && c.node.id === n.id && c.node !== n) current.value = { ...c, node: n };
  if (!n && removedId === c.node.id) closeOverlay();
}

// overlayRefresh redraws the open overlay (the context pins changed).
export function overlayRefresh() {
  if (current.value) current.value = { ...current.value };
}

// nodeText is the text Copy copies and the words counted: markdown
// content, file content, webpage content, html source, json spec.
export function nodeText(n) {
  const d = n.data || {};
  switch (n.type) {
    case "markdown": return String(d.content ?? d.text ?? "");
    case "file": return typeof d.fileContent === "string" ? d.fileContent : "";
    case "webpage": return String(d.content ?? d.excerpt ?? "");
    case "html": return String(d.html ?? d.content ?? "");
    case "json-render": return d.spec ? JSON.stringify(d.spec, null, 2) : "";
    default: return "";
  }
}

// wordCount counts the whitespace-separated runs with a letter or digit
// in them (markdown's "#", "-" and "|" are not words).
export const wordCount = (text) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

const isMarkdownFile = (n) => n.type === "file" && (n.data?.language === "markdown" || /\.(md|markdown)$/i.test(String(n.data?.path || "")));

// editable: a markdown node, or a file node of a markdown file.
const editable = (n) => n.type === "markdown" || isMarkdownFile(n);

// save writes the markdown source where it lives: a file node's file; a
// markdown node's file (data.path) and then its content; else its content.
export async function saveMarkdown(n, content) {
  const path = String(n.data?.path || "");
  if (path) {
    const res = await api("POST", "/api/file/save", { path, content });
    if (!res || !res.ok) return false;
    if (n.type === "file") return true; // the watcher re-reads the file into the node
  }
  const res = await api("PATCH", nodePath(n.id), { content });
  return !!(res && res.ok);
}

function Overlay() {
  const c = current.value;
  if (!c) return null;
  return html`<div class="expanded-overlay-backdrop" onClick=${(e) => { if (e.target === e.currentTarget) closeOverlay(); }}>
    <${Panel} key=${c.node.id} node=${c.node} edit=${c.edit} inContext=${board.inContext(c.node.id)} />
  </div>`;
}

// Panel gets the pin state as a prop: a component redraws only when its
// props or the signals it reads change.
function Panel({ node, edit, inContext }) {
  const panel = useRef(null);
  const [editing, setEditing] = useState(edit);
  const [copied, setCopied] = useState(false);
  const [saving, setSaving] = useState(false);
  const text = nodeText(node);
  const words = wordCount(text);
  const title = board.title(node);
  useLayoutEffect(() => { panel.current?.querySelector(editing ? "textarea" : ".expanded-overlay-close")?.focus(); }, [editing]);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = async () => {
    try { await navigator.clipboard.writeText(text); setCopied(true); } catch (err) { console.warn("copy failed:", err.message); }
  };
  return html`<div ref=${panel} class=${"expanded-overlay-panel" + (inContext ? " context-pinned" : "")}
      role="dialog" aria-modal="true" aria-label=${"Expanded " + title} data-node-id=${node.id}>
    <div class="expanded-overlay-header">
      <span class="chip expanded-overlay-badge">${board.badge(node)}</span>
      <span class="expanded-overlay-title">${title}</span>
      <span class="expanded-overlay-actions">
        <button type="button" class=${"expanded-overlay-pin" + (inContext ? " active" : "")} aria-pressed=${inContext ? "true" : "false"}
          onClick=${() => board.toggleContext(node.id)}><${Icon} name="spark" /> ${inContext ? "In context" : "Pin as context"}</button>
        ${text ? html`<button type="button" class="expanded-overlay-copy" onClick=${copy}>${copied ? "Copied!" : "Copy"}</button>` : null}
        ${siteURL(node) ? html`<button type="button" class="expanded-overlay-site" title="Open as site" onClick=${() => openSite(node)}><${Icon} name="external" /> Open as site</button>` : null}
        ${isPresentation(node) ? html`<button type="button" class="expanded-overlay-present" title="Present" onClick=${() => openPresentation(node)}><${Icon} name="play" /> Present</button>` : null}
        ${editable(node) && !editing ? html`<button type="button" class="expanded-overlay-edit" onClick=${() => setEditing(true)}>Edit source</button>` : null}
        ${text ? html`<span class="expanded-overlay-words">${words} ${words === 1 ? "word" : "words"}</span>` : null}
        <span class=${"expanded-overlay-hint" + (saving ? " saving" : "")}>${saving ? "Saving edits..." : "Esc to close"}</span>
        <button type="button" class="expanded-overlay-close" title="Close (Esc)" aria-label="Close (Esc)" onClick=${closeOverlay}><${Icon} name="cross" /></button>
      </span>
    </div>
    <div class="expanded-overlay-body">
      ${editing
        ? html`<${SourceEditor} node=${node} source=${text} onBack=${() => setEditing(false)} onSaving=${setSaving} />`
        : node.type === "markdown"
          ? html`${node.data?.reviewActive ? html`<div class="md-review-banner">Review active</div>` : null}
              <${InlineEditor} src=${text} save=${(md) => saveMarkdown(node, md)} onSaving=${setSaving} />`
          : html`<${NodeBody} node=${node} typeOf=${board.typeOf} expanded=${true} />`}
    </div>
  </div>`;
}

// SourceEditor: the raw markdown beside its live preview; Save (or
// Ctrl/⌘+S) writes it, Ctrl/⌘+B/I/U/E/K wrap the selection and Tab indents
// (md-source-keys.js). An edit survives the node's redraws; a save that
// succeeded shows "Saved" until the next keystroke; a draft still unsaved
// when the editor goes (Back, Esc, ×) is saved then.
function SourceEditor({ node, source, onBack, onSaving }) {
  const [draft, setDraft] = useState(source);
  const [state, setState] = useState("idle"); // idle | saving | saved | failed
  const preview = useMarkdown(draft);
  const path = String(node.data?.path || "");
  // What is on the server: a draft that differs is saved when the editor
  // goes (Back, Esc, ×), so closing never drops an edit.
  const saved = useRef(source);
  const latest = useRef(draft);
  latest.current = draft;
  const save = async () => {
    if (state === "saving") return;
    setState("saving");
    onSaving(true);
    const text = draft;
    const ok = await saveMarkdown(node, text);
    if (ok) saved.current = text;
    onSaving(false);
    setState(ok ? "saved" : "failed");
  };
  useEffect(() => () => {
    if (latest.current !== saved.current) saveMarkdown(node, latest.current);
  }, []);
  const onKey = (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") { e.preventDefault(); save(); return; }
    sourceKey(e);
  };
  const label = { idle: "Save", saving: "Saving…", saved: "Saved", failed: "Save failed — retry" }[state];
  return html`<div class="md-source-editor">
    <div class="md-editor-toolbar">
      <button type="button" class="md-editor-back" onClick=${onBack}>← Back to document</button>
      ${path ? html`<span class="md-editor-file" title=${path}><bdi>${path.split(/[\\/]/).pop()}</bdi></span>` : null}
      <button type="button" class=${"md-editor-save " + state} disabled=${state === "saving"} onClick=${save}>${label}</button>
    </div>
    <div class="md-editor-split">
      <textarea class="md-editor-source" aria-label="Markdown source" spellcheck="false" value=${draft}
        onInput=${(e) => { setDraft(e.currentTarget.value); if (state !== "saving") setState("idle"); }} onKeyDown=${onKey}></textarea>
      <div class="md-editor-preview md-rendered" aria-label="Preview"
        dangerouslySetInnerHTML=${{ __html: preview ?? "" }}></div>
    </div>
  </div>`;
}
