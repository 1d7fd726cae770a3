// The floating format bar of the inline markdown editor (web-client.md
// §5.10, `.md-inline-format-bar`): it appears above any non-empty selection
// in the document and formats it — bold, italic, strikethrough, inline
// code, headings 1–3, paragraph, quote, bulleted and numbered lists, link.
// A button acts on the mouse press, which it keeps from taking the focus
// (so the document's selection stays), and on Enter or Space once reached
// with Tab from the document: the bar
// remembers the last selection in the document and puts it back before it
// applies a format, so the keyboard gets every format the mouse does.
// A format is an editing command on the contentEditable document, so it
// fires the input event the editor saves on.

import { html, useState, useEffect, useRef } from "./ui.js";

const escapeHTML = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// badLink refuses addresses that run code when followed.
export const badLink = (url) => /^\s*(javascript|data|vbscript):/i.test(url);

const FORMATS = [
  { key: "bold", label: "Bold", text: "B", run: () => document.execCommand("bold") },
  { key: "italic", label: "Italic", text: "I", run: () => document.execCommand("italic") },
  { key: "strike", label: "Strikethrough", text: "S", run: () => document.execCommand("strikeThrough") },
  {
    key: "code", label: "Inline code", text: "{ }",
    run: () => {
      const t = window.getSelection()?.toString() || "";
      if (t) document.execCommand("insertHTML", false, "<code>" + escapeHTML(t) + "</code>");
    },
  },
  { key: "h1", label: "Heading 1", text: "H1", run: () => document.execCommand("formatBlock", false, "h1") },
  { key: "h2", label: "Heading 2", text: "H2", run: () => document.execCommand("formatBlock", false, "h2") },
  { key: "h3", label: "Heading 3", text: "H3", run: () => document.execCommand("formatBlock", false, "h3") },
  { key: "p", label: "Paragraph", text: "¶", run: () => document.execCommand("formatBlock", false, "p") },
  { key: "quote", label: "Quote", text: "❝", run: () => document.execCommand("formatBlock", false, "blockquote") },
  { key: "ul", label: "Bulleted list", text: "•", run: () => document.execCommand("insertUnorderedList") },
  { key: "ol", label: "Numbered list", text: "1.", run: () => document.execCommand("insertOrderedList") },
  {
    key: "link", label: "Link", text: "🔗",
    run: () => {
      const url = window.prompt("Link URL:");
      if (url && !badLink(url)) document.execCommand("createLink", false, url.trim());
    },
  },
];

// selectionIn returns the selection's range when it is non-empty and
// inside el.
function selectionIn(el) {
  const sel = window.getSelection();
  if (!el || !sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const r = sel.getRangeAt(0);
  return el.contains(r.commonAncestorContainer) ? r : null;
}

// FormatBar floats over the selection in the document getDoc() returns;
// onEdit is called after each format.
export function FormatBar({ getDoc, onEdit }) {
  const [pos, setPos] = useState(null);
  const bar = useRef(null);
  const saved = useRef(null);

  useEffect(() => {
    const update = () => {
      const doc = getDoc();
      const r = selectionIn(doc);
      if (r) {
        saved.current = r.cloneRange();
        const box = r.getBoundingClientRect();
        setPos({ left: Math.max(8, box.left + box.width / 2), top: Math.max(8, box.top - 8) });
        return;
      }
      // Focus in the bar keeps it open on the remembered selection.
      if (bar.current?.contains(document.activeElement)) return;
      saved.current = null;
      setPos(null);
    };
    document.addEventListener("selectionchange", update);
    return () => document.removeEventListener("selectionchange", update);
  }, []);

  if (!pos) return null;
  const apply = (f) => {
    const doc = getDoc();
    if (!doc || (!saved.current && !selectionIn(doc))) return;
    const from = document.activeElement;
    // A live selection in the document is the one to format; without one
    // (a keyboard press on a focused button moved the focus off the
    // document), put back the last one the human made.
    const live = selectionIn(doc);
    doc.focus({ preventScroll: true });
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(live || saved.current);
    f.run();
    onEdit();
    // From the keyboard the focus stays on the button, for the next format.
    if (bar.current?.contains(from)) from.focus({ preventScroll: true });
  };
  const onBarKey = (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      // Back to the document with the caret after the selection: the bar
      // goes until the next selection.
      getDoc()?.focus({ preventScroll: true });
      if (saved.current) {
        const sel = window.getSelection();
        sel.removeAllRanges();
        const r = saved.current.cloneRange();
        r.collapse(false);
        sel.addRange(r);
      }
      saved.current = null;
      setPos(null);
    }
  };
  return html`<div ref=${bar} class="md-inline-format-bar" role="toolbar" aria-label="Format the selection"
    style=${{ left: pos.left + "px", top: pos.top + "px" }} onKeyDown=${onBarKey}>
    ${FORMATS.map((f) => html`<button type="button" class=${"md-format-" + f.key} aria-label=${f.label} title=${f.label}
      onMouseDown=${(e) => { e.preventDefault(); if (e.button === 0) apply(f); }}
      onClick=${(e) => { if (e.detail === 0) apply(f); }}>${f.text}</button>`)}
  </div>`;
}
