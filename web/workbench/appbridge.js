// The host side of MCP Apps (the ext-apps protocol, SEP-1865): an app's
// ui:// document runs in a sandboxed frame and talks JSON-RPC 2.0 with its
// host over postMessage. hostApp answers the app's requests (initialize,
// tool calls, resources, model context, links) through `call`, and sends it
// the tool input and result it was opened with. The transport is the
// caller's: the workbench calls the /api/ext-app/* routes (bridgeRoutes);
// an MCP host showing the board app calls MCP tools.
//
// Hand-written rather than @modelcontextprotocol/ext-apps' AppBridge: the
// workbench has no build step, and the host half of the protocol is these
// few messages.

const HOST_INFO = { name: "PMX Canvas", version: "1.0.0" };
const PROTOCOL = "2025-06-18";
// INIT_FALLBACK_MS: an app whose initialized notification never arrives
// still gets its input and result (the reference's 1.2 s fallback).
const INIT_FALLBACK_MS = 1200;

// hostApp connects frame (an <iframe>) to its app. opts:
//   call(method, params) → Promise<result>: the app's requests to forward
//     (tools/call, resources/read, resources/list, resources/templates/list,
//     tools/list, prompts/list, ui/update-model-context);
//   toolInput, toolResult: what the app was opened with;
//   serverTools: false makes the app read-only (no tools/call; the
//     capability is not advertised);
//   hostContext: theme, displayMode, … (merged into the defaults);
//   onSize({width, height}): the app asked for a size;
//   onLog(entry): notifications/message from the app.
// It returns { close(), sendToolResult(result), setHostContext(ctx) }.
export function hostApp(frame, opts) {
  const post = (msg) => frame.contentWindow && frame.contentWindow.postMessage(msg, "*");
  const notify = (method, params) => post({ jsonrpc: "2.0", method, params });
  let bootstrapped = false;
  const bootstrap = () => {
    if (bootstrapped) return;
    bootstrapped = true;
    if (opts.toolInput !== undefined) notify("ui/notifications/tool-input", { arguments: opts.toolInput || {} });
    if (opts.toolResult) notify("ui/notifications/tool-result", opts.toolResult);
  };
  const fallback = setTimeout(bootstrap, INIT_FALLBACK_MS);
  const context = () => ({
    theme: document.documentElement.dataset.theme === "light" ? "light" : "dark",
    platform: "web", displayMode: "inline", locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    containerDimensions: { width: frame.clientWidth, height: frame.clientHeight },
    ...(opts.hostContext || {}),
  });

  async function answer(m) {
    const reply = (result) => post({ jsonrpc: "2.0", id: m.id, result });
    const fail = (code, message) => post({ jsonrpc: "2.0", id: m.id, error: { code, message } });
    const p = m.params || {};
    switch (m.method) {
      case "ui/initialize":
        return reply({
          protocolVersion: PROTOCOL, hostInfo: HOST_INFO,
          hostCapabilities: opts.serverTools === false
            ? { openLinks: {}, serverResources: {}, logging: {} }
            : { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
          hostContext: context(),
        });
      case "ping":
        return reply({});
      case "ui/open-link": {
        const url = String(p.url || "");
        if (!/^https?:\/\//.test(url)) return fail(-32602, "open-link wants an http(s) url");
        window.open(url, "_blank", "noopener,noreferrer");
        return reply({});
      }
      case "tools/call": case "tools/list":
        if (opts.serverTools === false) return fail(-32601, "this host does not let apps call tools");
      // falls through
      case "resources/read": case "resources/list": case "resources/templates/list":
      case "prompts/list": case "ui/update-model-context":
        try {
          return reply(await opts.call(m.method, p));
        } catch (err) {
          return fail(-32000, (err && err.message) || String(err));
        }
      default:
        return fail(-32601, `${m.method} is not supported by this host`);
    }
  }

  function onMessage(ev) {
    if (ev.source !== frame.contentWindow) return;
    const m = ev.data;
    if (!m || m.jsonrpc !== "2.0" || typeof m.method !== "string") return;
    if (m.id !== undefined && m.id !== null) { answer(m); return; }
    switch (m.method) {
      case "ui/notifications/initialized":
        clearTimeout(fallback);
        bootstrap();
        break;
      case "ui/notifications/size-changed":
        if (opts.onSize) opts.onSize(m.params || {});
        break;
      case "notifications/message":
        if (opts.onLog) opts.onLog(m.params || {});
        break;
    }
  }
  window.addEventListener("message", onMessage);
  return {
    close() { clearTimeout(fallback); window.removeEventListener("message", onMessage); },
    sendToolResult(result) { notify("ui/notifications/tool-result", result); },
    setHostContext(ctx) { opts.hostContext = { ...(opts.hostContext || {}), ...ctx }; notify("ui/notifications/host-context-changed", context()); },
  };
}

// bridgeRoutes is `call` over the ext-app bridge routes for one app node:
// api(method, path, body) → Response (the workbench's fetch helper).
export function bridgeRoutes(api, sessionId, nodeId) {
  const routes = {
    "tools/call": (p) => ["/api/ext-app/call-tool", { sessionId, nodeId, toolName: p.name, arguments: p.arguments || {} }],
    "resources/read": (p) => ["/api/ext-app/read-resource", { sessionId, uri: p.uri }],
    "resources/list": () => ["/api/ext-app/list-resources", { sessionId }],
    "resources/templates/list": () => ["/api/ext-app/list-resource-templates", { sessionId }],
    "tools/list": () => ["/api/ext-app/list-tools", { sessionId }],
    "prompts/list": () => ["/api/ext-app/list-prompts", { sessionId }],
    "ui/update-model-context": (p) => ["/api/ext-app/model-context", { nodeId, content: p.content, structuredContent: p.structuredContent }],
  };
  return async (method, params) => {
    const [path, body] = routes[method](params);
    const res = await api("POST", path, body);
    if (!res) throw new Error("the canvas server is unreachable");
    const out = await res.json();
    if (!res.ok || out.ok === false) throw new Error(out.error || `HTTP ${res.status}`);
    return method === "ui/update-model-context" ? {} : out.result;
  };
}
