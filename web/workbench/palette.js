// The command palette (Ctrl/⌘+K): every node plus a few actions, matched by
// a scored subsequence of the label; `type:<prefix>` (or a bare alias such
// as `md`) keeps one node type. While a query is typed the matching nodes
// glow on the board and the rest dim.

const ALIASES = { md: "markdown", app: "mcp-app", web: "webpage", ui: "json-render", chart: "graph", ctx: "context", log: "ledger" };

// score returns the match score of query in label (-1: no match) and the
// indexes of the matched characters.
export function score(label, query) {
  const l = label.toLowerCase(), q = query.toLowerCase();
  let s = 0, at = -1, prev = -2;
  const hits = [];
  for (const ch of q) {
    at = l.indexOf(ch, at + 1);
    if (at < 0) return { score: -1, hits: [] };
    s += 1;
    if (at === prev + 1) s += 10;
    if (at === 0 || " -_".includes(l[at - 1])) s += 5;
    hits.push(at);
    prev = at;
  }
  return { score: s, hits };
}

function typeFilter(query) {
  const q = query.trim().toLowerCase();
  const m = /^type:(\S*)\s*(.*)$/.exec(q);
  const word = m ? m[1] : q.split(/\s+/)[0];
  const rest = m ? m[2] : q.split(/\s+/).slice(1).join(" ");
  if (ALIASES[word]) return { type: ALIASES[word], rest };
  if (m) return { prefix: word, rest };
  return null;
}

// openPalette shows the palette. wb: {nodes(), labelOf(n), badgeOf(n),
// actions: [{label, badge, run}], focus(id), highlight(ids|null)}.
export function openPalette(wb) {
  if (document.querySelector(".command-palette-backdrop")) return closePalette(wb);
  const backdrop = document.createElement("div");
  backdrop.className = "command-palette-backdrop";
  backdrop.innerHTML = `<div class="command-palette" role="dialog" aria-label="Command palette">
    <input class="command-palette-input" placeholder="Search nodes and actions... (Ctrl+K)" aria-label="Search nodes and actions">
    <div class="command-palette-hint">Up/Down navigate · Enter select · Esc close · type: filter by type</div>
    <div class="command-palette-results" role="listbox"></div></div>`;
  document.body.append(backdrop);
  const input = backdrop.querySelector("input");
  const list = backdrop.querySelector(".command-palette-results");
  let items = [], selected = 0;

  const refresh = () => {
    const query = input.value;
    const filter = typeFilter(query);
    const text = filter ? filter.rest : query.trim();
    const nodeItems = wb.nodes()
      .filter((n) => !filter || (filter.type ? n.type === filter.type : n.type.startsWith(filter.prefix)))
      .map((n) => ({ label: wb.labelOf(n), badge: wb.badgeOf(n), desc: String((n.data && (n.data.content || n.data.path)) || "").slice(0, 80), node: n }));
    const all = filter ? nodeItems : nodeItems.concat(wb.actions);
    if (!text) {
      items = all.map((it) => ({ ...it, hits: [] }));
    } else {
      items = all.map((it) => ({ ...it, ...score(it.label, text) }))
        .filter((it) => it.score >= 0)
        .sort((a, b) => b.score - a.score);
    }
    wb.highlight(query.trim() ? new Set(items.filter((it) => it.node).map((it) => it.node.id)) : null);
    selected = 0;
    draw();
  };
  const draw = () => {
    list.replaceChildren();
    items.forEach((it, i) => {
      const row = document.createElement("div");
      row.className = "command-palette-item" + (i === selected ? " selected" : "");
      row.setAttribute("role", "option");
      const badge = document.createElement("span");
      badge.className = "node-type-badge";
      badge.textContent = it.badge;
      const label = document.createElement("span");
      label.className = "command-palette-label";
      [...it.label].forEach((ch, k) => {
        if (it.hits.includes(k)) label.append(Object.assign(document.createElement("mark"), { textContent: ch }));
        else label.append(ch);
      });
      row.append(badge, label);
      if (it.desc) row.append(Object.assign(document.createElement("span"), { className: "command-palette-desc", textContent: it.desc }));
      row.addEventListener("mouseenter", () => { selected = i; mark(); });
      row.addEventListener("click", () => run(i));
      list.append(row);
    });
  };
  const mark = () => [...list.children].forEach((r, i) => r.classList.toggle("selected", i === selected));
  const run = (i) => {
    const it = items[i];
    closePalette(wb);
    if (!it) return;
    if (it.node) wb.focus(it.node.id);
    else it.run();
  };
  input.addEventListener("input", refresh);
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown") { selected = Math.min(items.length - 1, selected + 1); mark(); e.preventDefault(); }
    if (e.key === "ArrowUp") { selected = Math.max(0, selected - 1); mark(); e.preventDefault(); }
    if (e.key === "Enter") run(selected);
    if (e.key === "Escape") closePalette(wb);
  });
  backdrop.addEventListener("pointerdown", (e) => { if (e.target === backdrop) closePalette(wb); });
  refresh();
  input.focus();
}

export function closePalette(wb) {
  document.querySelector(".command-palette-backdrop")?.remove();
  wb.highlight(null);
}

export function paletteOpen() {
  return !!document.querySelector(".command-palette-backdrop");
}
