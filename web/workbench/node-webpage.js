// The webpage renderer: the page as the server fetched it — host, title,
// link, status pill, description, Refresh (POST /api/canvas/node/:id/refresh)
// and Open in browser, when it was fetched and the HTTP status, the error,
// and the excerpt (web-client.md §5.10 webpage).

import { html, useState } from "./ui.js";
import { Icon } from "./icons.js";
import { api, nodePath } from "./client.js";

const hostOf = (url) => { try { return new URL(url).host; } catch { return ""; } };
const safeURL = (url) => (/^https?:\/\//i.test(url) ? url : null);

export function WebpageBody({ node }) {
  const d = node.data || {};
  const [busy, setBusy] = useState(false);
  const url = String(d.url || "");
  const status = String(d.status || "pending");
  const tone = status === "ready" ? "ok" : status === "error" ? "danger" : "warn";
  const refreshing = busy || status === "fetching";
  const refresh = async (e) => {
    e.stopPropagation();
    setBusy(true);
    await api("POST", nodePath(node.id, "/refresh"), {});
    setBusy(false);
  };
  const fetched = Date.parse(d.fetchedAt);
  const excerpt = String(d.excerpt || "");
  const link = safeURL(url);
  return html`<div class="webpage-node">
    <div class="webpage-head">
      <span class="webpage-host">${hostOf(url)}</span>
      <span class=${"pill webpage-status tone-" + tone}>${status}</span>
    </div>
    <div class="webpage-title">${String(d.pageTitle || d.title || url)}</div>
    ${link ? html`<a class="webpage-url" href=${link} target="_blank" rel="noopener noreferrer">${url}</a>` : html`<span class="webpage-url">${url}</span>`}
    ${d.description ? html`<div class="webpage-description">${String(d.description)}</div>` : null}
    <div class="webpage-actions">
      <button type="button" class="webpage-refresh" disabled=${refreshing} onClick=${refresh}>
        <${Icon} name="refresh" /> ${refreshing ? "Refreshing…" : "Refresh"}</button>
      ${link ? html`<a class="webpage-open" href=${link} target="_blank" rel="noopener noreferrer"><${Icon} name="external" /> Open in browser</a>` : null}
    </div>
    <div class="webpage-meta">
      ${Number.isFinite(fetched) ? html`<span>Fetched ${new Date(fetched).toLocaleString()}</span>` : null}
      ${d.statusCode ? html`<span>HTTP ${d.statusCode}</span>` : null}
      ${d.frameBlocked ? html`<span>Preview blocked by site</span>` : null}
    </div>
    ${d.error ? html`<div class="webpage-error">${String(d.error)}</div>` : null}
    <div class="webpage-excerpt">${excerpt || (status === "fetching" ? "Waiting for page text..." : "No cached page text available.")}</div>
  </div>`;
}
