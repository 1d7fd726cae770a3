// The page's connection to its server: which canvas it shows, the token it
// was opened with, the fetch helper every module uses, and the theme as a
// signal (components that read it redraw when it changes).

import { signal } from "./ui.js";

const params = new URLSearchParams(location.search);
export const canvasId = params.get("canvas") || "";
export const token = params.get("token") || "";

// tabId names this tab: its stream is labelled workbench:<tabId> in
// presence (tabLabel) and its writes are the agent human:<tabId> (agent),
// so the updates feed and presence attribute a human's edits to the tab
// that made them.
const tabId = Math.random().toString(36).slice(2, 8);
export const tabLabel = "workbench:" + tabId;
export const agent = "human:" + tabId;

// theme is the canvas's theme: dark, light or high-contrast.
export const theme = signal(document.documentElement.dataset.theme || "dark");

// apiURL addresses path on the canvas this page shows.
export function apiURL(path) {
  if (!canvasId) return path;
  return path + (path.includes("?") ? "&" : "?") + "canvas=" + encodeURIComponent(canvasId);
}

// api sends a JSON request with the page's token, and a write (anything
// but GET) with this tab's agent (X-PMX-Agent); it logs a failure (unless
// quiet: the caller hands a refusal on) and returns the response (null
// when the server is unreachable).
export async function api(method, path, body, { quiet = false } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  if (method !== "GET") headers["X-PMX-Agent"] = agent;
  try {
    const res = await fetch(apiURL(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok && !quiet) console.error(method, path, res.status, await res.text());
    return res;
  } catch (err) {
    if (!quiet) console.error(method, path, err);
    return null;
  }
}

// nodePath is the route of one node: /api/canvas/node/<id><rest>.
export const nodePath = (id, rest = "") => "/api/canvas/node/" + encodeURIComponent(id) + rest;
