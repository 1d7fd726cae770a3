// Drag-and-drop and paste onto the board (web-client.md §17, §5.9): files
// and URLs dragged from the OS show a drop zone over the viewport; a drop
// creates a node per file (an image as a data URI, a markdown file as a
// markdown node, any other file as a file node with the text it holds) and
// a webpage node per URL; a paste outside text fields does the same at the
// viewport's centre. Every node goes through POST /api/canvas/node, one
// request after the other, like an agent's.

import { api } from "./client.js";

const IMAGE_CELL = { w: 400, h: 300 }, TEXT_CELL = { w: 720, h: 500 }, URL_CELL = { w: 520, h: 420 };
const FILE_GAP = 20, URL_GAP = 24;

// extractURLs reads the http(s) addresses out of dropped or pasted text:
// one a line (or whitespace-separated), "#" lines skipped (text/uri-list
// comments), https:// added when there is no scheme, duplicates dropped.
export function extractURLs(...texts) {
  const out = [];
  const seen = new Set();
  for (const text of texts) {
    if (!text) continue;
    for (const line of String(text).split(/\r?\n/)) {
      const l = line.trim();
      if (!l || l.startsWith("#")) continue;
      for (let word of l.split(/\s+/)) {
        if (!/^[a-z][a-z0-9+.-]*:/i.test(word)) {
          // A bare host: "example.com/x" (a dot in the host part).
          if (!/^[^\s/]+\.[a-z]{2,}(?::\d+)?(?:[/?#]|$)/i.test(word) && !/^localhost(?::\d+)?(?:[/?#]|$)/i.test(word)) continue;
          word = "https://" + word;
        }
        let u;
        try { u = new URL(word); } catch { continue; }
        if (u.protocol !== "http:" && u.protocol !== "https:") continue;
        const href = u.href;
        if (!seen.has(href)) { seen.add(href); out.push(href); }
      }
    }
  }
  return out;
}

// grid places n cells of size cell on a ⌈√n⌉-column grid centred at c.
export function grid(n, cell, gap, c) {
  const cols = Math.max(1, Math.ceil(Math.sqrt(n)));
  const rows = Math.ceil(n / cols);
  const w = cols * cell.w + (cols - 1) * gap, h = rows * cell.h + (rows - 1) * gap;
  const out = [];
  for (let i = 0; i < n; i++) {
    const col = i % cols, row = Math.floor(i / cols);
    out.push({ x: Math.round(c.x - w / 2 + col * (cell.w + gap)), y: Math.round(c.y - h / 2 + row * (cell.h + gap)) });
  }
  return out;
}

// LANGUAGES names a dropped file's language by its extension (the
// server's language ids, which the file renderer labels).
const LANGUAGES = { go: "go", ts: "typescript", tsx: "tsx", js: "javascript", mjs: "javascript", jsx: "jsx", py: "python",
  rs: "rust", rb: "ruby", java: "java", kt: "kotlin", swift: "swift", c: "c", h: "c", cc: "cpp", cpp: "cpp", hpp: "cpp",
  cs: "csharp", php: "php", sh: "shell", bash: "shell", sql: "sql", json: "json", yaml: "yaml", yml: "yaml", toml: "toml",
  xml: "xml", html: "html", css: "css", csv: "csv", tsv: "tsv", txt: "text", diff: "diff", patch: "diff" };

const isImage = (f) => /^image\//.test(f.type) || /\.(png|jpe?g|gif|webp|svg|avif|bmp|ico)$/i.test(f.name);
const isMarkdown = (f) => /\.(md|mdx|markdown)$/i.test(f.name);

const readAs = (file, how) => new Promise((resolve, reject) => {
  const r = new FileReader();
  r.onload = () => resolve(r.result);
  r.onerror = () => reject(r.error);
  if (how === "url") r.readAsDataURL(file); else r.readAsText(file);
});

// fileBody is the create request of one dropped file.
async function fileBody(file) {
  const title = file.name || "Dropped file";
  if (isImage(file)) {
    let uri = await readAs(file, "url");
    // A file the OS gave no type: say it is an image (the server takes
    // only image/* data URIs).
    if (uri.startsWith("data:application/octet-stream")) uri = uri.replace("data:application/octet-stream", "data:image/" + (/\.(\w+)$/.exec(title)?.[1].toLowerCase().replace("jpg", "jpeg").replace("svg", "svg+xml") || "png"));
    return { type: "image", title, content: uri, ...IMAGE_SIZE };
  }
  const text = await readAs(file, "text");
  if (isMarkdown(file)) return { type: "markdown", title, content: text, ...TEXT_SIZE };
  // The text goes in data.fileContent, not content: the server reads a
  // one-line content as a workspace path.
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const data = { fileContent: text, lineCount: lines.length, droppedFile: true };
  const lang = LANGUAGES[(/\.([A-Za-z0-9]+)$/.exec(title)?.[1] || "").toLowerCase()];
  if (lang) data.language = lang;
  return { type: "file", title, data, ...TEXT_SIZE };
}
const IMAGE_SIZE = { width: IMAGE_CELL.w, height: IMAGE_CELL.h }, TEXT_SIZE = { width: TEXT_CELL.w, height: TEXT_CELL.h };

// addFiles creates a node per file around the point c (world coordinates).
export async function addFiles(files, c) {
  files = [...files];
  if (!files.length) return;
  const cell = files.some((f) => !isImage(f)) ? TEXT_CELL : IMAGE_CELL;
  const spots = grid(files.length, cell, FILE_GAP, c);
  for (let i = 0; i < files.length; i++) {
    let body;
    try { body = await fileBody(files[i]); } catch (err) { console.error("reading", files[i].name, err); continue; }
    await api("POST", "/api/canvas/node", { ...body, ...spots[i] });
  }
}

// addURLs creates a webpage node per address around c.
export async function addURLs(urls, c) {
  const spots = grid(urls.length, URL_CELL, URL_GAP, c);
  for (let i = 0; i < urls.length; i++) {
    await api("POST", "/api/canvas/node", { type: "webpage", content: urls[i], width: URL_CELL.w, height: URL_CELL.h, ...spots[i] });
  }
}

// A drag that started on the page (a card's image or selected text) is
// not a drop onto the board.
let inPage = false;
addEventListener("dragstart", () => { inPage = true; }, true);
addEventListener("dragend", () => { inPage = false; }, true);

const carries = (dt) => !inPage && !!dt && [...(dt.types || [])].some((t) => t === "Files" || t === "text/uri-list" || t === "text/plain");

const editableTarget = (t) => !!t && t.nodeType === 1 &&
  (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable || !!t.closest("[contenteditable=''],[contenteditable=true]"));

// setupDrop wires the viewport: drags over target (the page's root, so
// the welcome card and the HUD over the board take drops too) show the
// zone in the viewport; toWorld maps client coordinates to the board's;
// center is the viewport's centre on the board.
export function setupDrop(viewportEl, { target = viewportEl, toWorld, center, blocked = () => false }) {
  const zone = document.createElement("div");
  zone.className = "drop-zone-overlay";
  zone.hidden = true;
  zone.setAttribute("aria-hidden", "true");
  zone.innerHTML = `<div class="drop-zone-card"><div class="drop-zone-plus">+</div><div class="drop-zone-text">Drop files or URLs to add to canvas</div></div>`;
  viewportEl.append(zone);
  // Enter and leave fire for every child crossed: count them, so the zone
  // does not flicker.
  // A drag given up outside the window may end without a leave: the page
  // gets dragover about every 350 ms while a drag is over it, so a second
  // without one ends it too.
  let depth = 0, watchdog = 0;
  const hide = () => { depth = 0; zone.hidden = true; clearTimeout(watchdog); };
  const show = () => { zone.hidden = false; clearTimeout(watchdog); watchdog = setTimeout(hide, 1000); };
  target.addEventListener("dragenter", (e) => {
    if (!carries(e.dataTransfer) || blocked()) return;
    e.preventDefault();
    depth++;
    show();
  });
  target.addEventListener("dragover", (e) => {
    if (!carries(e.dataTransfer) || blocked()) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
    show();
  });
  target.addEventListener("dragleave", () => { if (--depth <= 0) hide(); });
  target.addEventListener("drop", (e) => {
    const dt = e.dataTransfer;
    hide();
    if (!carries(dt) || blocked()) return;
    e.preventDefault();
    const at = toWorld(e.clientX, e.clientY);
    const files = [...(dt.files || [])];
    if (files.length) { addFiles(files, at); return; }
    const urls = extractURLs(dt.getData("text/uri-list"), dt.getData("text/plain"));
    if (urls.length) addURLs(urls, at);
  });
  addEventListener("dragend", hide);

  document.addEventListener("paste", (e) => {
    if (e.defaultPrevented || editableTarget(e.target) || editableTarget(document.activeElement) || blocked()) return;
    const dt = e.clipboardData;
    if (!dt) return;
    const images = [...(dt.files || [])].filter(isImage);
    if (images.length) { e.preventDefault(); addFiles(images, center()); return; }
    const urls = extractURLs(dt.getData("text/uri-list"), dt.getData("text/plain"));
    if (urls.length) { e.preventDefault(); addURLs(urls, center()); }
  });
}
