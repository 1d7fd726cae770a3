// Markdown is rendered on the server (POST /api/render: goldmark, GitHub
// flavoured, sanitised by bluemonday), the same HTML agents and artifact
// pages get. A node shows its text as plain text until the HTML arrives;
// rendered HTML is cached by source, so the re-renders every layout frame
// causes cost nothing.

const MAX_CACHED = 500;
const cache = new Map(); // source -> html (insertion order: oldest first)
const pending = new Map(); // source -> Promise<html>

// renderMarkdown fills body with src rendered; render(src) fetches the
// HTML (the caller's authenticated request). It returns false for empty src.
export function renderMarkdown(body, src, render) {
  if (!src) return false;
  const hit = cache.get(src);
  if (hit !== undefined) {
    body.innerHTML = hit;
    return true;
  }
  const plain = document.createElement("div");
  plain.className = "md-pending";
  plain.textContent = src;
  body.append(plain);
  let p = pending.get(src);
  if (!p) {
    p = render(src).then((html) => {
      pending.delete(src);
      if (typeof html !== "string") return null;
      cache.set(src, html);
      if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value);
      return html;
    });
    pending.set(src, p);
  }
  p.then((html) => {
    if (html !== null && plain.isConnected) {
      plain.remove();
      body.insertAdjacentHTML("beforeend", html);
    }
  });
  return true;
}
