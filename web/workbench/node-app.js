// The app renderer of mcp-app nodes: an MCP App (mode ext-app) in a
// sandboxed frame of its surface with the host bridge (appbridge.js)
// forwarding its calls to its session; a page this server hosts (a web
// artifact, data.url on this origin) in a sandboxed frame; an address
// elsewhere as a link (the page's CSP frames only this origin); or the
// node's text.

import { html, useRef, useLayoutEffect } from "./ui.js";
import { Icon } from "./icons.js";
import { api, apiURL } from "./client.js";
import { hostApp, bridgeRoutes } from "./appbridge.js";

export const isExtApp = (n) => n.type === "mcp-app" && !!n.data && n.data.mode === "ext-app";

const isSidecar = (v) => !!v && typeof v === "object" && v.stored === "sidecar";

// fullNode reads a node with its large app payloads.
async function fullNode(id) {
  const res = await api("GET", "/api/canvas/state?includeBlobs=true");
  if (!res || !res.ok) return null;
  return ((await res.json()).nodes || []).find((x) => x.id === id) || null;
}

// ExtAppFrame keeps one frame and one host bridge per app session: the
// layout frames the app's own calls cause redraw it without reloading it.
function ExtAppFrame({ node }) {
  const d = node.data;
  const frame = useRef(null);
  useLayoutEffect(() => {
    const opts = {
      call: bridgeRoutes(api, d.appSessionId, node.id),
      toolInput: d.toolInput, toolResult: d.toolResult,
      onLog: (entry) => console.debug("app", node.id, entry),
    };
    const host = hostApp(frame.current, opts);
    if (isSidecar(d.toolInput) || isSidecar(d.toolResult)) {
      // Large payloads arrive summarised in layout frames: read them whole
      // before the app's initialize asks for them.
      opts.toolInput = opts.toolResult = undefined;
      fullNode(node.id).then((full) => {
        if (full) { opts.toolInput = full.data.toolInput; opts.toolResult = full.data.toolResult; }
      });
    }
    return () => host.close();
  }, [d.appSessionId, d.resourceUri]);
  return html`<iframe ref=${frame} class="mcp-app-frame ext-app-frame" title=${String(d.title || "App")}
    sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
    src=${apiURL(`/api/canvas/surface/${encodeURIComponent(node.id)}`)}></iframe>`;
}

export function AppBody({ node }) {
  const d = node.data || {};
  if (isExtApp(node)) {
    const banner = d.sessionStatus === "error" || d.sessionStatus === "rehydrating"
      ? html`<div class=${"app-session-banner " + d.sessionStatus}>${d.sessionStatus === "error"
        ? `App session failed: ${d.sessionError || "unknown error"}` : "Reconnecting to the app server..."}</div>` : null;
    if (d.sessionStatus === "rehydrating") return banner;
    return html`${banner}<${ExtAppFrame} key=${d.appSessionId} node=${node} />`;
  }
  const url = String(d.url || "");
  if (url.startsWith("/")) {
    // A page of this server (a web artifact): scripts run, in an opaque origin.
    return html`<iframe class="mcp-app-frame" src=${url} title=${String(d.title || "App")} loading="lazy"
      sandbox="allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox"></iframe>`;
  }
  if (/^https?:\/\//i.test(url)) {
    return html`<div class="app-external">
      ${d.trustedDomain ? null : html`<div class="node-banner warn"><${Icon} name="warning" /> Unverified domain</div>`}
      <p>This app is served by another site; it opens outside the board.</p>
      <a href=${url} target="_blank" rel="noopener noreferrer"><${Icon} name="external" /> ${url}</a></div>`;
  }
  return d.content ? html`<pre class="app-content">${String(d.content)}</pre>` : html`<div class="node-empty">Empty node</div>`;
}
