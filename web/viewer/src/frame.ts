// Glue between a viewer document and the canvas that frames
// it: the boot payload, the theme, the content height and the error box.
// Both bundles (viewer.js and viewer-mermaid.js) use it, so it must not
// import React.

/** The three themes of the canvas; anything else falls back to dark. */
export type Theme = "dark" | "light" | "high-contrast";

/** The boot payload the server writes into window.__PMX_VIEWER__. */
export interface Payload {
  kind: "json-render" | "graph" | "mermaid";
  nodeId: string;
  theme: Theme;
  display: "inline" | "expanded";
  spec?: unknown;
  source?: string;
  /** set by the server when it could not encode the spec */
  error?: string;
}

declare global {
  interface Window {
    __PMX_VIEWER__?: Partial<Payload>;
  }
}

const themes: readonly Theme[] = ["dark", "light", "high-contrast"];

/** normalizeTheme maps any value to one of the three themes. */
export function normalizeTheme(v: unknown): Theme {
  return themes.includes(v as Theme) ? (v as Theme) : "dark";
}

/** readPayload returns the boot payload with defaults filled in. */
export function readPayload(): Payload {
  const p = window.__PMX_VIEWER__ ?? {};
  return {
    kind: p.kind ?? "json-render",
    nodeId: typeof p.nodeId === "string" ? p.nodeId : "",
    theme: normalizeTheme(p.theme),
    display: p.display === "expanded" ? "expanded" : "inline",
    spec: p.spec,
    source: typeof p.source === "string" ? p.source : undefined,
    error: typeof p.error === "string" ? p.error : undefined,
  };
}

/**
 * applyTheme sets data-theme on <html>, and the .dark class that the
 * shadcn components' dark: variants key on (high contrast is a dark theme).
 */
export function applyTheme(theme: Theme): void {
  const html = document.documentElement;
  html.dataset.theme = theme;
  html.classList.toggle("dark", theme !== "light");
}

/**
 * postToParent sends a message to the framing canvas. The frame is
 * sandboxed without same-origin, so the parent's origin is unknown to it
 * and "*" is the only target that reaches it.
 */
export function postToParent(message: Record<string, unknown>): void {
  if (window.parent && window.parent !== window) {
    window.parent.postMessage(message, "*");
  } else {
    // Opened on its own (a test, "Open as site"): deliver to ourselves so
    // the messages can still be observed.
    window.postMessage(message, "*");
  }
}

/**
 * onThemeMessage applies {type:"pmx-theme", theme} messages from the parent
 * and calls listener after each change.
 */
export function onThemeMessage(listener: (theme: Theme) => void): void {
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const data = event.data as { type?: unknown; theme?: unknown } | null;
    if (!data || data.type !== "pmx-theme") return;
    const theme = normalizeTheme(data.theme);
    applyTheme(theme);
    listener(theme);
  });
}

/**
 * reportHeight posts {type:"pmx-frame-height", nodeId, height} whenever the
 * rendered content of el changes height, so the canvas can fit the node to
 * it. Only changes are posted.
 */
export function reportHeight(nodeId: string, el: HTMLElement): void {
  let last = -1;
  const send = () => {
    const style = getComputedStyle(document.body);
    const pad = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const height = Math.ceil(el.getBoundingClientRect().height + pad);
    if (height === last) return;
    last = height;
    postToParent({ type: "pmx-frame-height", nodeId, height });
  };
  new ResizeObserver(send).observe(el);
  send();
}

/**
 * renderErrorBox replaces el's content with a readable error: a heading
 * naming what failed and the detail in a preformatted block. A frame must
 * never be left blank.
 */
export function renderErrorBox(el: HTMLElement, title: string, detail: string): void {
  const box = document.createElement("div");
  box.className = "pmx-error";
  box.setAttribute("role", "alert");
  const head = document.createElement("div");
  head.className = "pmx-error-title";
  head.textContent = title;
  const pre = document.createElement("pre");
  pre.className = "pmx-error-detail";
  pre.textContent = detail;
  box.append(head, pre);
  el.replaceChildren(box);
}

/** errorText is the message of any thrown value. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}
