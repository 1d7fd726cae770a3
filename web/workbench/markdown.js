// markdown renders the common subset (headings, emphasis, code, links,
// lists, tables, paragraphs) from escaped text, so stored content can never
// inject markup.
export function markdown(src) {
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
