// Checking a spec before it is rendered. @json-render/react draws nothing
// for a spec it cannot use (no root, a root missing from elements), so the
// viewer finds those cases first and names them in an error box.

import { autoFixSpec, validateSpec, type Spec, type ActionBinding } from "@json-render/core";

/** Checked is a spec ready to render, or why it cannot be. */
export interface Checked {
  spec: Spec | null;
  /** fatal problems: nothing can be drawn */
  errors: string[];
  /** problems that leave the rest drawable (a missing child) */
  warnings: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * checkSpec validates the shape of v ({root, elements, state?}; a single
 * bare component {type, props?, children?} is wrapped as the root) and
 * returns it with the library's fixes applied (on/visible/repeat/watch
 * moved out of props).
 */
export function checkSpec(v: unknown): Checked {
  const fail = (msg: string): Checked => ({ spec: null, errors: [msg], warnings: [] });
  if (!isObject(v)) return fail("The spec is not a JSON object.");
  let raw: Record<string, unknown> = v;
  if (!("root" in raw) && !("elements" in raw) && typeof raw.type === "string") {
    raw = { root: "root", elements: { root: raw } };
  }
  if (typeof raw.root !== "string" || raw.root === "") return fail('The spec has no "root" element key.');
  if (!isObject(raw.elements)) return fail('The spec has no "elements" map.');
  const errors: string[] = [];
  const elements: Record<string, unknown> = {};
  for (const [key, el] of Object.entries(raw.elements)) {
    if (!isObject(el) || typeof el.type !== "string") {
      errors.push(`Element "${key}" has no component "type".`);
      continue;
    }
    const children = Array.isArray(el.children) ? el.children.filter((c) => typeof c === "string") : [];
    elements[key] = { ...el, props: isObject(el.props) ? el.props : {}, children };
  }
  if (errors.length) return { spec: null, errors, warnings: [] };
  const state = isObject(raw.state) ? raw.state : undefined;
  const { spec } = autoFixSpec({ root: raw.root, elements, state } as Spec);
  const issues = validateSpec(spec).issues.filter((i) => i.severity === "error");
  const fatal = issues.filter((i) => i.code !== "missing_child").map((i) => i.message);
  const warnings = issues.filter((i) => i.code === "missing_child").map((i) => i.message);
  return fatal.length ? { spec: null, errors: fatal, warnings } : { spec, errors: [], warnings };
}

const builtIn = new Set(["setState", "pushState", "removeState", "validateForm", "push", "pop"]);

/**
 * customActions lists the action names a spec binds (in on and watch)
 * that are not built into @json-render/react: they need a handler, and the
 * viewer's handler only forwards them to the parent.
 */
export function customActions(spec: Spec): string[] {
  const names = new Set<string>();
  const add = (b: ActionBinding | ActionBinding[] | undefined) => {
    for (const one of Array.isArray(b) ? b : b ? [b] : []) {
      if (typeof one?.action === "string" && !builtIn.has(one.action)) names.add(one.action);
    }
  };
  for (const el of Object.values(spec.elements)) {
    Object.values(el.on ?? {}).forEach(add);
    Object.values(el.watch ?? {}).forEach(add);
  }
  return [...names].sort();
}
