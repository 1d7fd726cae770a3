// The page's connection to its server: which canvas it shows, the token it
// was opened with, the fetch helper every module uses, and the theme as a
// signal (components that read it redraw when it changes).

import { signal } from "./ui.js";

const params = new URLSearchParams(location.search);
export const canvasId = params.get("canvas") || "";
export const token = params.get("token") || "";

// theme is the canvas's theme: dark, light or high-contrast.
export const theme = signal(document.documentElement.dataset.theme || "dark");

// apiURL addresses path on the canvas this page shows.
export function apiURL(path) {
  if (!canvasId) return path;
  return path + (path.includes("?") ? "&" : "?") + "canvas=" + encodeURIComponent(canvasId);
}

// api sends a JSON request with the page's token; it logs a failure and
// returns the response (null when the server is unreachable).
export async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  try {
    const res = await fetch(apiURL(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) console.error(method, path, res.status, await res.text());
    return res;
  } catch (err) {
    console.error(method, path, err);
    return null;
  }
}

// nodePath is the route of one node: /api/canvas/node/<id><rest>.
export const nodePath = (id, rest = "") => "/api/canvas/node/" + encodeURIComponent(id) + rest;
