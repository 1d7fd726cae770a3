// The json-render and graph viewer: the entry of viewer.js. It renders the
// node's spec (window.__PMX_VIEWER__.spec) with @json-render/react and the
// viewer registry, keeps the spec's state in a store, and posts every
// action to the parent canvas as
// {type:"pmx-json-render-action", nodeId, action, params, state}.

import { createStateStore, JSONUIProvider, Renderer, type StateStore } from "@json-render/react";
import { registerActionObserver, type Spec } from "@json-render/core";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Boundary, ErrorBox } from "./errors";
import { errorText, onThemeMessage, postToParent, readPayload, renderErrorBox, reportHeight } from "./frame";
import { registry, Unknown } from "./registry";
import { checkSpec, customActions } from "./spec";
import { setTheme } from "./theme";

/** plain returns v as JSON data, which postMessage can always clone. */
function plain(v: unknown): unknown {
  try {
    return v === undefined ? null : JSON.parse(JSON.stringify(v));
  } catch {
    return null;
  }
}

/**
 * forwardActions posts each action to the parent once it has run, so the
 * state sent is the state after it (a setState's new value included).
 * The observer sees built-in actions too, which have no handler to hook.
 */
function forwardActions(nodeId: string, store: StateStore): void {
  const pending = new Map<string, { name: string; params?: Record<string, unknown> }>();
  registerActionObserver({
    onDispatch: (evt) => pending.set(evt.id, { name: evt.name, params: evt.params }),
    onSettle: (evt) => {
      const a = pending.get(evt.id);
      pending.delete(evt.id);
      postToParent({
        type: "pmx-json-render-action",
        nodeId,
        action: a?.name ?? evt.name,
        params: plain(a?.params ?? {}),
        state: plain(store.getSnapshot()),
      });
    },
  });
}

interface AppProps {
  spec: Spec;
  warnings: string[];
  store: StateStore;
  handlers: Record<string, () => void>;
}

function App({ spec, warnings, store, handlers }: AppProps) {
  return (
    <JSONUIProvider registry={registry} store={store} handlers={handlers}>
      {warnings.length ? <ErrorBox title="Spec problems" detail={warnings.join("\n")} /> : null}
      <Renderer spec={spec} registry={registry} fallback={Unknown} />
    </JSONUIProvider>
  );
}

function main(): void {
  const payload = readPayload();
  const root = document.getElementById("pmx-root") ?? document.body;
  setTheme(payload.theme);
  onThemeMessage(setTheme);
  reportHeight(payload.nodeId, root);
  if (payload.error) {
    renderErrorBox(root, "The spec cannot be shown", payload.error);
    return;
  }
  const checked = checkSpec(payload.spec);
  if (!checked.spec) {
    renderErrorBox(root, "Invalid json-render spec", checked.errors.join("\n"));
    return;
  }
  const store = createStateStore(checked.spec.state ?? {});
  forwardActions(payload.nodeId, store);
  // Custom actions need a handler or the provider warns and drops them;
  // the parent (told by forwardActions) is where they take effect.
  const handlers = Object.fromEntries(customActions(checked.spec).map((name) => [name, () => undefined]));
  try {
    createRoot(root).render(
      <StrictMode>
        <Boundary name="This spec">
          <App spec={checked.spec} warnings={checked.warnings} store={store} handlers={handlers} />
        </Boundary>
      </StrictMode>,
    );
  } catch (err) {
    renderErrorBox(root, "The viewer failed to start", errorText(err));
  }
}

main();
