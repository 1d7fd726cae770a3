// The markdown source editor's keys (web-client.md §5.10): Ctrl/⌘+B, I,
// U (strikethrough), E (inline code) and K (link) wrap the selection in
// Markdown; Tab and Shift+Tab indent and outdent the selected lines by two
// spaces. Edits go through the browser's editing command, so Ctrl/⌘+Z
// undoes them like typing.

import { badLink } from "./md-format-bar.js";

const MARKS = { b: "**", i: "*", u: "~~", e: "`" };

// replace puts text over [start, end) of the textarea and selects
// [selStart, selEnd) afterwards.
function replace(ta, start, end, text, selStart, selEnd) {
  ta.focus();
  ta.setSelectionRange(start, end);
  if (!document.execCommand("insertText", false, text)) ta.setRangeText(text, start, end); // fallback: no undo step
  ta.setSelectionRange(selStart, selEnd);
  ta.dispatchEvent(new Event("input", { bubbles: true }));
}

function wrap(ta, open, close = open) {
  const { selectionStart: s, selectionEnd: e, value } = ta;
  const inner = value.slice(s, e);
  replace(ta, s, e, open + inner + close, s + open.length, s + open.length + inner.length);
}

function indent(ta, outdent) {
  const { selectionStart: s, selectionEnd: e, value } = ta;
  if (!outdent && s === e) { replace(ta, s, e, "  ", s + 2, s + 2); return; }
  const from = value.lastIndexOf("\n", s - 1) + 1;
  const to = e > s && value[e - 1] === "\n" ? e - 1 : e;
  const lines = value.slice(from, to).split("\n");
  let first = 0, total = 0;
  const out = lines.map((l, i) => {
    if (!outdent) { total += 2; if (i === 0) first = 2; return "  " + l; }
    const n = l.startsWith("  ") ? 2 : l.startsWith(" ") ? 1 : 0;
    total -= n; if (i === 0) first = -n;
    return l.slice(n);
  }).join("\n");
  replace(ta, from, to, out, Math.max(from, s + first), Math.max(from, e + total));
}

// sourceKey handles a keydown in the source textarea; it reports whether
// the key was the editor's (then default handling is prevented).
export function sourceKey(e) {
  const ta = e.currentTarget;
  if (e.key === "Tab" && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    indent(ta, e.shiftKey);
    return true;
  }
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return false;
  const k = e.key.toLowerCase();
  if (MARKS[k]) { e.preventDefault(); wrap(ta, MARKS[k]); return true; }
  if (k === "k") {
    e.preventDefault();
    const url = window.prompt("Link URL:");
    if (url && !badLink(url)) wrap(ta, "[", "](" + url.trim() + ")");
    return true;
  }
  return false;
}
