// Markdown is rendered on the server (POST /api/render: goldmark, GitHub
// flavoured, sanitised by bluemonday), the same HTML agents and artifact
// pages get. useMarkdown gives a component the HTML for a source, or null
// until it arrives (the component shows the plain text meanwhile).
// Rendered HTML is cached by source, so the redraws every layout frame
// causes cost nothing.

import { useState, useEffect } from "./ui.js";
import { api } from "./client.js";

const MAX_CACHED = 500;
const cache = new Map(); // source -> html (insertion order: oldest first)
const pending = new Map(); // source -> Promise<html | null>

function renderOnServer(src) {
  let p = pending.get(src);
  if (p) return p;
  p = api("POST", "/api/render", { markdown: src }).then(async (res) => {
    pending.delete(src);
    if (!res || !res.ok) return null;
    const out = await res.json();
    if (typeof out.html !== "string") return null;
    cache.set(src, out.html);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value);
    return out.html;
  });
  pending.set(src, p);
  return p;
}

// useMarkdown is src rendered as sanitised HTML, or null while it is on
// its way (or when src is empty).
export function useMarkdown(src) {
  const [, setHTML] = useState(null);
  // The request starts while drawing (not after the paint an effect
  // waits for); the effect only waits for it.
  const request = src && !cache.has(src) ? renderOnServer(src) : null;
  useEffect(() => {
    if (!request) return;
    let live = true;
    request.then((out) => { if (live && out !== null) setHTML(out); });
    return () => { live = false; };
  }, [src]);
  return src && cache.has(src) ? cache.get(src) : null;
}
