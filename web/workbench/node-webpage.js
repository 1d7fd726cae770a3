// The webpage renderer: the page as the server fetched it — host, title,
// link, status pill, description, Refresh (POST /api/canvas/node/:id/refresh)
// and Open in browser, when it was fetched and the HTTP status, the error,
// and the excerpt (web-client.md §5.10 webpage). In the focus overlay a
// page that allows framing gets "Show live preview": the page itself in a
// sandboxed frame (web-client.md §18: scripts, forms, popups, no same
// origin, no referrer), shown only when asked for; a page that refuses
// framing says so instead.

import { html, useState } from "./ui.js";
import { Icon } from "./icons.js";
import { api, nodePath } from "./client.js";

const hostOf = (url) => { try { return new URL(url).host; } catch { return ""; } };
const safeURL = (url) => (/^https?:\/\//i.test(url) ? url : null);

const LIVE_SANDBOX = "allow-downloads allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-presentation allow-scripts";

export function WebpageBody({ node, expanded = false }) {
  const d = node.data || {};
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState(false);
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
      ${expanded && link && !d.frameBlocked ? html`<button type="button" class="webpage-live-toggle" aria-pressed=${live ? "true" : "false"}
        onClick=${(e) => { e.stopPropagation(); setLive(!live); }}>${live ? "Hide live preview" : "Show live preview"}</button>` : null}
      ${link ? html`<a class="webpage-open" href=${link} target="_blank" rel="noopener noreferrer"><${Icon} name="external" /> Open in browser</a>` : null}
    </div>
    ${expanded && live && link && !d.frameBlocked ? html`<div class="webpage-live">
      <div class="webpage-live-note">Live preview: the page as it is now, in a sandboxed frame; some pages do not work framed.</div>
      <iframe class="webpage-live-frame" src=${link} sandbox=${LIVE_SANDBOX} referrerpolicy="no-referrer"
        title=${"Live preview of " + String(d.pageTitle || d.title || url)}></iframe>
    </div>` : null}
    ${expanded && d.frameBlocked ? html`<div class="webpage-live-blocked" role="note">
      This site does not allow being shown inside another page${d.frameBlockedReason ? html` (${String(d.frameBlockedReason)})` : ""}: open it in the browser instead.
    </div>` : null}
    <div class="webpage-meta">
      ${Number.isFinite(fetched) ? html`<span>Fetched ${new Date(fetched).toLocaleString()}</span>` : null}
      ${d.statusCode ? html`<span>HTTP ${d.statusCode}</span>` : null}
      ${d.frameBlocked ? html`<span>Preview blocked by site</span>` : null}
    </div>
    ${d.error ? html`<div class="webpage-error">${String(d.error)}</div>` : null}
    <div class="webpage-excerpt">${excerpt || (status === "fetching" ? "Waiting for page text..." : "No cached page text available.")}</div>
  </div>`;
}
