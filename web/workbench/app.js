// The workbench board view: follows the canvas's event stream and draws
// its nodes, groups, edges and annotations. It never writes to the canvas;
// pan and zoom are local to this page.

const params = new URLSearchParams(location.search);
const canvasId = params.get("canvas") || "";
const token = params.get("token") || "";

const state = { layout: null, sessionId: "", live: false, view: null, pins: null };

const app = document.getElementById("app");
app.innerHTML = `
  <div class="canvas-toolbar" role="toolbar" aria-label="Canvas">
    <span class="session-dot"></span><span class="session-id">connecting</span>
    <span class="zoom-level">100%</span><span class="counts"></span>
  </div>
  <div class="hud-left"></div><div class="hud-right"></div>
  <div class="canvas-viewport" tabindex="0">
    <div class="world">
      <svg class="edge-layer" aria-label="Canvas connections"></svg>
      <svg class="annotation-layer"></svg>
      <div class="nodes"></div>
    </div>
  </div>
  <div class="context-pin-bar" hidden></div>
  <div class="welcome-card" hidden><strong>This canvas is empty</strong><br>
    <span class="node-meta">Agents add nodes over HTTP, MCP or the CLI; they appear here live.</span></div>`;

const $ = (sel) => app.querySelector(sel);
const viewport = $(".canvas-viewport");
const world = $(".world");

function eventsURL() {
  const q = new URLSearchParams();
  if (canvasId) q.set("canvas", canvasId);
  if (token) q.set("token", token);
  const s = q.toString();
  return "/api/workbench/events" + (s ? "?" + s : "");
}

function connect() {
  const es = new EventSource(eventsURL());
  es.addEventListener("connected", (e) => {
    const d = JSON.parse(e.data);
    state.sessionId = d.sessionId || "";
    if (d.theme) document.documentElement.dataset.theme = d.theme;
    setLive(true);
  });
  es.addEventListener("canvas-layout-update", (e) => {
    const d = JSON.parse(e.data);
    state.layout = d.layout;
    state.pins = new Set(d.layout.nodes.filter((n) => n.pinned).map((n) => n.id));
    if (!state.view) state.view = initialView(d.layout);
    if (d.layout.theme) document.documentElement.dataset.theme = d.layout.theme;
    render();
    document.getElementById("canvasBootstrap").classList.add("ready");
  });
  es.addEventListener("context-pins-changed", (e) => {
    state.pins = new Set(JSON.parse(e.data).nodeIds || []);
    if (state.layout) render();
  });
  es.addEventListener("theme-changed", (e) => {
    const d = JSON.parse(e.data);
    if (d.theme) document.documentElement.dataset.theme = d.theme;
  });
  es.addEventListener("canvas-viewport-update", (e) => {
    const d = JSON.parse(e.data);
    if (d.viewport) { state.view = { ...d.viewport }; applyView(); }
  });
  es.onerror = () => setLive(false);
}

function setLive(live) {
  state.live = live;
  $(".canvas-toolbar").classList.toggle("live", live);
  $(".session-id").textContent = live ? state.sessionId : "reconnecting";
}

function el(tag, attrs = {}, text) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

function titleOf(node) {
  const d = node.data || {};
  return d.title || node.title || d.path || d.url || node.id;
}

const badge = { markdown: "MD", group: "GROUP", status: "STATUS", context: "CONTEXT", file: "FILE",
  webpage: "WEB", image: "IMG", html: "HTML", "mcp-app": "APP", ledger: "LEDGER", trace: "TRACE",
  prompt: "PROMPT", response: "RESPONSE", "json-render": "JSON", graph: "GRAPH" };

function render() {
  const layout = state.layout;
  const nodes = layout.nodes || [];
  const edges = layout.edges || [];
  const left = $(".hud-left"), right = $(".hud-right"), layer = $(".nodes");
  left.replaceChildren(); right.replaceChildren(); layer.replaceChildren();
  const ordered = [...nodes.filter((n) => n.type === "group"), ...nodes.filter((n) => n.type !== "group")];
  let onBoard = 0;
  for (const n of ordered) {
    if (n.dockPosition === "left" || n.dockPosition === "right") {
      const label = (n.data || {}).title || n.title || badge[n.type] || n.type;
      const d = el("div", { class: "docked-node", "data-docked-node": "true", "data-node-id": n.id }, label);
      (n.dockPosition === "left" ? left : right).append(d);
      continue;
    }
    onBoard++;
    layer.append(renderNode(n));
  }
  renderEdges(nodes, edges);
  renderAnnotations(layout.annotations || []);
  $(".counts").textContent = `${nodes.length} nodes · ${edges.length} edges`;
  const pinned = state.pins.size;
  const pinBar = $(".context-pin-bar");
  pinBar.hidden = pinned === 0;
  pinBar.textContent = `✦ ${pinned} ${pinned === 1 ? "node" : "nodes"} in context`;
  $(".welcome-card").hidden = onBoard > 0;
  applyView();
}

function renderNode(n) {
  const classes = ["canvas-node", `node-${n.type}`];
  if (n.type === "group") classes.push("group-node");
  if (state.pins.has(n.id)) classes.push("pinned");
  if (n.collapsed) classes.push("collapsed");
  const box = el("div", { class: classes.join(" "), "data-node-id": n.id, "data-node-type": n.type });
  box.style.left = n.position.x + "px";
  box.style.top = n.position.y + "px";
  box.style.width = n.size.width + "px";
  box.style.height = (n.collapsed ? 40 : n.size.height) + "px";
  box.style.zIndex = String(n.type === "group" ? 0 : 1 + (n.zIndex || 0));
  const head = el("div", { class: "node-header" });
  head.append(el("span", { class: "node-type-badge" }, badge[n.type] || n.type),
    el("span", { class: "node-title" }, titleOf(n)));
  const body = el("div", { class: "node-body" });
  fillBody(body, n);
  box.append(head, body);
  return box;
}

function fillBody(body, n) {
  const d = n.data || {};
  switch (n.type) {
    case "markdown": case "prompt": case "response": case "context": case "ledger": case "trace":
      body.innerHTML = markdown(String(d.content ?? d.text ?? ""));
      return;
    case "status":
      body.append(el("div", {}, String(d.content ?? d.message ?? d.phase ?? "")));
      return;
    case "file":
      body.append(el("div", { class: "node-meta" }, d.path || ""));
      if (typeof d.fileContent === "string") body.append(el("pre", {}, d.fileContent));
      return;
    case "webpage":
      body.append(el("div", { class: "node-meta" }, d.url || ""));
      if (d.content) body.innerHTML += markdown(String(d.content));
      return;
    case "image": {
      const src = String(d.src || d.content || "");
      if (/^(https?:|data:image\/)/.test(src)) body.append(el("img", { src, alt: titleOf(n) }));
      else body.append(el("div", { class: "node-meta" }, src));
      return;
    }
    case "html": {
      // No allow-scripts: stored HTML is shown, never run, in this page.
      const frame = el("iframe", { sandbox: "", title: titleOf(n) });
      frame.srcdoc = String(d.html ?? d.content ?? "");
      body.append(frame);
      return;
    }
    case "group":
      body.append(el("div", { class: "node-meta" }, `${(d.children || []).length} nodes`));
      return;
    default:
      if (d.content) body.append(el("pre", {}, String(d.content)));
  }
}

function center(n) {
  return { x: n.position.x + n.size.width / 2, y: n.position.y + n.size.height / 2 };
}

const svgNS = "http://www.w3.org/2000/svg";

function renderEdges(nodes, edges) {
  const svg = $(".edge-layer");
  svg.replaceChildren();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const e of edges) {
    const a = byId.get(e.from), b = byId.get(e.to);
    if (!a || !b) continue;
    const p = center(a), q = center(b);
    const line = document.createElementNS(svgNS, "line");
    line.setAttribute("x1", p.x); line.setAttribute("y1", p.y);
    line.setAttribute("x2", q.x); line.setAttribute("y2", q.y);
    line.setAttribute("class", e.style || "solid");
    line.dataset.edgeId = e.id;
    svg.append(line);
    if (e.label) {
      const t = document.createElementNS(svgNS, "text");
      t.setAttribute("x", (p.x + q.x) / 2); t.setAttribute("y", (p.y + q.y) / 2);
      t.textContent = e.label;
      svg.append(t);
    }
  }
}

function renderAnnotations(annotations) {
  const svg = $(".annotation-layer");
  svg.replaceChildren();
  for (const a of annotations) {
    const pts = a.points || [];
    if (pts.length === 0) continue;
    const color = !a.color || a.color === "currentColor" ? "var(--c-annotation)" : a.color;
    if (a.type === "text") {
      const t = document.createElementNS(svgNS, "text");
      t.setAttribute("x", pts[0].x); t.setAttribute("y", pts[0].y);
      t.setAttribute("font-size", a.width || 24);
      t.setAttribute("font-weight", "bold");
      t.style.fill = color;
      t.textContent = a.text || "";
      t.dataset.annotationId = a.id;
      svg.append(t);
      continue;
    }
    const path = document.createElementNS(svgNS, "path");
    path.setAttribute("d", pts.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke-width", a.width || 4);
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
    path.style.stroke = color;
    path.dataset.annotationId = a.id;
    svg.append(path);
  }
}

// initialView is the stored viewport, unless that shows none of the board's
// nodes: then the board is fitted to the window (local only).
function initialView(layout) {
  const v = { ...layout.viewport };
  const board = (layout.nodes || []).filter((n) => !n.dockPosition);
  if (board.length === 0) return v;
  const W = innerWidth, H = innerHeight;
  const visible = board.some((n) => {
    const x = n.position.x * v.scale + v.x, y = n.position.y * v.scale + v.y;
    return x < W && y < H && x + n.size.width * v.scale > 0 && y + n.size.height * v.scale > 0;
  });
  if (visible) return v;
  const minX = Math.min(...board.map((n) => n.position.x)), minY = Math.min(...board.map((n) => n.position.y));
  const maxX = Math.max(...board.map((n) => n.position.x + n.size.width));
  const maxY = Math.max(...board.map((n) => n.position.y + n.size.height));
  const pad = 60, top = 110; // clear of the toolbar and docked widgets
  const scale = Math.min(1, Math.max(0.1, Math.min((W - 2 * pad) / (maxX - minX), (H - top - pad) / (maxY - minY))));
  return { scale, x: pad - minX * scale, y: top - minY * scale };
}

function applyView() {
  const v = state.view || { x: 0, y: 0, scale: 1 };
  world.style.transform = `matrix(${v.scale},0,0,${v.scale},${v.x},${v.y})`;
  $(".zoom-level").textContent = Math.round(v.scale * 100) + "%";
}

// Local pan (drag the background) and zoom (wheel), clamped like the
// reference (0.1–4).
let drag = null;
viewport.addEventListener("pointerdown", (e) => {
  if (e.target.closest(".canvas-node")) return;
  drag = { x: e.clientX, y: e.clientY, v: { ...(state.view || { x: 0, y: 0, scale: 1 }) } };
  viewport.classList.add("panning");
});
addEventListener("pointermove", (e) => {
  if (!drag) return;
  state.view = { ...drag.v, x: drag.v.x + e.clientX - drag.x, y: drag.v.y + e.clientY - drag.y };
  applyView();
});
addEventListener("pointerup", () => { drag = null; viewport.classList.remove("panning"); });
viewport.addEventListener("wheel", (e) => {
  e.preventDefault();
  const v = state.view || { x: 0, y: 0, scale: 1 };
  const scale = Math.min(4, Math.max(0.1, v.scale * Math.exp(-e.deltaY / 500)));
  const k = scale / v.scale;
  state.view = { scale, x: e.clientX - (e.clientX - v.x) * k, y: e.clientY - (e.clientY - v.y) * k };
  applyView();
}, { passive: false });

// markdown renders the common subset (headings, emphasis, code, links,
// lists, tables, paragraphs) from escaped text, so stored content can never
// inject markup.
function markdown(src) {
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const inline = (s) => esc(s)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*]+)\*/g, "<em>$1</em>")
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>');
  const out = [];
  const lines = src.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      while (++i < lines.length && !lines[i].startsWith("```")) code.push(lines[i]);
      out.push(`<pre><code>${esc(code.join("\n"))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const level = line.indexOf(" ");
      out.push(`<h${level}>${inline(line.slice(level + 1))}</h${level}>`);
    } else if (/^\s*[-*] /.test(line)) {
      const items = [];
      for (; i < lines.length && /^\s*[-*] /.test(lines[i]); i++) items.push(`<li>${inline(lines[i].replace(/^\s*[-*] /, ""))}</li>`);
      i--;
      out.push(`<ul>${items.join("")}</ul>`);
    } else if (/^\|.*\|\s*$/.test(line)) {
      const rows = [];
      for (; i < lines.length && /^\|.*\|\s*$/.test(lines[i]); i++) {
        if (/^\|[\s:|-]+\|\s*$/.test(lines[i])) continue;
        const cells = lines[i].trim().slice(1, -1).split("|").map((c) => inline(c.trim()));
        const tag = rows.length === 0 ? "th" : "td";
        rows.push(`<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`);
      }
      i--;
      out.push(`<table>${rows.join("")}</table>`);
    } else if (line.trim() !== "") {
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  return out.join("");
}

connect();
