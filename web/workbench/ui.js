// The component model of the workbench: Preact components written as htm
// tagged templates (JSX-like, parsed at run time without eval, so the page
// keeps its strict CSP), hooks, and @preact/signals for shared reactive
// state. The libraries are vendored (vendor/README.md); every page module
// imports them from here, never from the vendored files.

import { h, render, Fragment } from "./vendor/preact.module.js";
import htm from "./vendor/htm.module.js";

export { h, render, Fragment };
export { useState, useEffect, useRef, useMemo, useCallback, useLayoutEffect } from "./vendor/hooks.module.js";
export { signal, computed, effect, batch } from "./vendor/signals.module.js";

// html is h as tagged templates: html`<div class=${c}>${child}</div>`.
export const html = htm.bind(h);
