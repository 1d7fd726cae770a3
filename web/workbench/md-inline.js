// The markdown node's inline editor in the focus overlay (web-client.md
// §5.10): the rendered document itself is editable. Every edit is turned
// back into Markdown (toMarkdown: ATX headings, fenced code, * emphasis,
// - bullets, GFM tables, strikethrough and task items) and saved 800 ms
// after the last keystroke, at once on blur and on Ctrl/⌘+S, and when the
// overlay closes. Ctrl/⌘+B and I make bold and italic, Ctrl/⌘+K a link
// (javascript: and data: addresses refused); a paste is plain text. A
// selection gets the floating format bar (md-format-bar.js).
// Saving goes where the note lives (overlay.js saveMarkdown): its file
// (data.path) through POST /api/file/save, and its content through PATCH.

import { html, useRef, useEffect, useLayoutEffect } from "./ui.js";
import { useMarkdown } from "./markdown.js";
import { FormatBar, badLink } from "./md-format-bar.js";

const SAVE_DELAY = 800;

// ---- HTML → Markdown ----

const BLOCKS = new Set(["P", "DIV", "H1", "H2", "H3", "H4", "H5", "H6", "UL", "OL", "LI", "BLOCKQUOTE", "PRE", "HR", "TABLE", "SECTION", "ARTICLE", "HEADER", "FOOTER", "FIGURE", "DETAILS"]);

// escapeText keeps text that reads as markup literal.
function escapeText(s) {
  return s.replace(/\\/g, "\\\\").replace(/([*`[\]])/g, "\\$1").replace(/(^|\W)_|_(?=\W|$)/g, (m) => m.replace("_", "\\_"));
}

function inline(node, ctx = {}) {
  let out = "";
  for (const c of node.childNodes) out += inlineNode(c, ctx);
  return out;
}

function wrap(mark, inner) {
  // Marks hug the text: "** x **" is not bold in Markdown.
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner);
  return m[2] ? m[1] + mark + m[2] + mark + m[3] : inner;
}

function inlineNode(n, ctx) {
  if (n.nodeType === 3) {
    const t = n.nodeValue.replace(/\u00a0/g, " ");
    return ctx.pre ? t : escapeText(t.replace(/\s+/g, " "));
  }
  if (n.nodeType !== 1) return "";
  switch (n.tagName) {
    case "STRONG": case "B": return wrap("**", inline(n, ctx));
    case "EM": case "I": return wrap("*", inline(n, ctx));
    case "S": case "DEL": case "STRIKE": return wrap("~~", inline(n, ctx));
    case "CODE": {
      const t = n.textContent;
      const fence = t.includes("`") ? "``" : "`";
      return t ? fence + t + fence : "";
    }
    case "A": {
      const text = inline(n, ctx);
      const href = n.getAttribute("href") || "";
      return href ? `[${text || href}](${href})` : text;
    }
    case "IMG": return `![${n.getAttribute("alt") || ""}](${n.getAttribute("src") || ""})`;
    case "BR": return "  \n";
    case "INPUT": return n.type === "checkbox" ? (n.checked ? "[x] " : "[ ] ") : "";
    default:
      if (BLOCKS.has(n.tagName)) return blocks(n, ctx).join(" ");
      return inline(n, ctx);
  }
}

const tidy = (s) => s.replace(/[ \t]+\n/g, (m) => (m.startsWith("  ") ? "  \n" : "\n")).replace(/^ +| +$/g, "");

// blocks turns an element's children into Markdown blocks.
function blocks(node, ctx = {}) {
  const out = [];
  let run = "";
  const flush = () => { const t = tidy(run); if (t) out.push(t); run = ""; };
  for (const c of node.childNodes) {
    if (c.nodeType === 1 && BLOCKS.has(c.tagName)) { flush(); out.push(...block(c, ctx)); }
    else run += inlineNode(c, ctx);
  }
  flush();
  return out.filter((b) => b !== "");
}

function block(n, ctx) {
  switch (n.tagName) {
    case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": {
      const t = tidy(inline(n, ctx)).replace(/\s*\n\s*/g, " ");
      return t ? ["#".repeat(Number(n.tagName[1])) + " " + t] : [];
    }
    case "HR": return ["---"];
    case "PRE": {
      const code = n.querySelector("code");
      const lang = (/language-(\S+)/.exec(code?.className || "") || [])[1] || "";
      const text = (code || n).textContent.replace(/\n$/, "");
      const fence = text.includes("```") ? "~~~" : "```";
      return [fence + lang + "\n" + text + "\n" + fence];
    }
    case "BLOCKQUOTE": return [blocks(n, ctx).join("\n\n").split("\n").map((l) => (l ? "> " + l : ">")).join("\n")];
    case "UL": case "OL": return [list(n, ctx)];
    case "TABLE": return [table(n, ctx)];
    case "LI": return [list({ tagName: "UL", children: [n] }, ctx)];
    default: return blocks(n, ctx);
  }
}

function list(n, ctx) {
  const ordered = n.tagName === "OL";
  let i = Number(n.getAttribute?.("start")) || 1;
  const items = [];
  for (const li of n.children) {
    if (li.tagName !== "LI") continue;
    const marker = ordered ? `${i++}. ` : "- ";
    const body = blocks(li, ctx);
    const tight = body.map((b) => b).join("\n");
    const pad = " ".repeat(marker.length);
    const text = tight.split("\n").map((l, j) => (j === 0 ? marker + l : l ? pad + l : "")).join("\n");
    items.push(body.length ? text : marker.trimEnd());
  }
  return items.join("\n");
}

function table(n, ctx) {
  const rows = [...n.querySelectorAll("tr")].map((tr) => [...tr.children].map((c) => tidy(inline(c, ctx)).replace(/\|/g, "\\|").replace(/\n/g, " ")));
  if (!rows.length) return "";
  const cols = Math.max(...rows.map((r) => r.length));
  const line = (r) => "| " + Array.from({ length: cols }, (_, i) => r[i] || "").join(" | ") + " |";
  return [line(rows[0]), "| " + Array(cols).fill("---").join(" | ") + " |", ...rows.slice(1).map(line)].join("\n");
}

// toMarkdown is the Markdown of an edited document.
export function toMarkdown(root) {
  return blocks(root).join("\n\n");
}

// ---- the editor ----

// InlineEditor: src is the note's Markdown; save(markdown) writes it and
// resolves to whether it worked; onSaving tells the overlay.
export function InlineEditor({ src, save, onSaving }) {
  const root = useRef(null);
  const rendered = useMarkdown(src);
  const st = useRef({ dirty: false, timer: 0, saved: src, saving: null, shown: null });
  const s = st.current;
  s.save = save;
  s.onSaving = onSaving;

  const flush = async () => {
    clearTimeout(s.timer);
    s.timer = 0;
    if (!s.dirty || !s.el) return;
    if (s.saving) { await s.saving; return flush(); }
    const md = toMarkdown(s.el);
    s.dirty = false;
    if (md === s.saved) return;
    s.onSaving(true);
    s.saving = s.save(md).then((ok) => {
      if (ok) s.saved = md; else s.dirty = true;
      return ok;
    });
    await s.saving;
    s.saving = null;
    s.onSaving(false);
  };

  // The document is drawn from the note only while nobody is editing it:
  // the caret and unsaved words stay put when the node redraws.
  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    s.el = el;
    if (rendered === null) { if (s.shown === null) el.textContent = src; return; }
    if (s.dirty || s.saving) return;
    if (s.shown === rendered) return;
    if (document.activeElement === el && s.saved === src && s.shown !== null) return;
    el.innerHTML = rendered;
    s.shown = rendered;
    s.saved = src;
  }, [rendered]);

  useEffect(() => () => { if (s.dirty) flush(); }, []);

  const onInput = () => {
    s.dirty = true;
    clearTimeout(s.timer);
    s.timer = setTimeout(flush, SAVE_DELAY);
  };
  const onKeyDown = (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (!mod || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "s") { e.preventDefault(); s.dirty = true; flush(); }
    else if (k === "b" || k === "i") { e.preventDefault(); document.execCommand(k === "b" ? "bold" : "italic"); onInput(); }
    else if (k === "k") {
      e.preventDefault();
      const url = window.prompt("Link URL:");
      if (!url || badLink(url)) return;
      document.execCommand("createLink", false, url.trim());
      onInput();
    }
  };
  const onPaste = (e) => {
    const text = e.clipboardData?.getData("text/plain");
    e.preventDefault();
    if (text) document.execCommand("insertText", false, text);
  };
  // The format bar follows the document, so Tab from a selection reaches it.
  return html`<div ref=${root} class="md-rendered md-reader-content md-reader-editable" contentEditable="true"
    role="textbox" aria-multiline="true" aria-label="Document (editable)" spellcheck="true"
    onInput=${onInput} onKeyDown=${onKeyDown} onPaste=${onPaste} onBlur=${flush}></div>
    <${FormatBar} getDoc=${() => root.current} onEdit=${onInput} />`;
}
