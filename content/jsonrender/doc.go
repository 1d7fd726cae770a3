// Package jsonrender normalises, validates and streams the specs of
// "json-render" canvas nodes: a flat JSON description of a UI that the
// @json-render React renderer draws in the browser. An agent writes
// {"root": "card", "elements": {"card": {"type": "Card", "props": {…},
// "children": ["chart"]}, …}, "state": {…}}; this package turns what it
// wrote into the form the renderer expects and says precisely what is
// wrong when it cannot. It imports nothing of the canvas server.
//
// # API
//
//   - Catalog, RootShape and Directives describe the 48 components, the
//     spec's shape and the "$" keys, for the schema document.
//   - Normalize normalises and validates a spec, giving a *Spec (with
//     Summary and Title) or an error: ErrMissingRoot or a *SpecError.
//   - Stream builds a spec from JSON Patch calls (Apply) and validates it
//     at the end (Close); ResumeStream goes on from a stored spec.
//
// # The catalog
//
// The 48 component names, their props (name, type, whether required,
// enums), the aliases, the prop coercions and the slots are the reference
// product's (its catalog table and normalisation rules). 36 of the
// components are @json-render/shadcn's, whose definitions the reference
// extends (extra Badge and Button variants, an "xl" gap on Stack and
// Grid); the component and prop descriptions, the examples and the event
// names follow that package's definitions, written anew. The 12 charts
// (AreaChart, BarChart, BulletChart, ComposedChart, DotPlot, LineChart,
// PieChart, RadarChart, ScatterChart, Slopegraph, Sparkline,
// StackedBarChart) are the reference's own; their prop types follow its
// graph builder. The 15 "$" keys are the renderer's eight expressions
// ($state, $item, $index, $bindState, $bindItem, $cond, $computed,
// $template, from @json-render/core) and the seven directives of
// @json-render/directives ($format, $math, $concat, $count, $truncate,
// $pluralize, $join).
//
// # Normalisation
//
// Normalize works on a copy; its input is never changed.
//
//   - A bare component {type, props?, children?} with no root or elements
//     becomes {root: "root", elements: {root: <it>}}. A spec with neither
//     root nor elements otherwise is ErrMissingRoot.
//   - An element's type is kept when it is a component name; otherwise it
//     is matched against the names and aliases ignoring case, "-", "_"
//     and spaces (Panel, Section and NativePanel → Card; Container →
//     Stack; FormField → Input; Paragraph and Label → Text; Header and
//     Title → Heading; Chart, Line and Graph → LineChart; Bar → BarChart;
//     Pie → PieChart).
//   - Null members of props are removed at any depth (nulls inside arrays
//     stay, so Table cells keep their columns).
//   - The props title, text, message, label, name, content, description
//     and placeholder become strings: numbers as JavaScript writes them,
//     booleans as "true" and "false", other objects and arrays as compact
//     JSON (the reference wrote "[object Object]").
//   - Per component: see Component.Coercions. Form controls get a name
//     from their element key; Text, Heading and Badge take text from
//     content; Badge takes text from label and never keeps label; Select
//     and Radio take options from items and option objects become labels;
//     the entries of ToggleGroup.items, ButtonGroup.buttons,
//     DropdownMenu.items and Tabs.tabs become {label, value}; Button
//     variants default, outline and destructive become primary, secondary
//     and danger; Table columns become strings and rows a string matrix.
//   - Every element gets visible (true when missing), on ({} when
//     missing) and children (the strings of the list, [] when missing);
//     repeat and watch are kept when present; other element fields are
//     dropped.
//   - A value whose object has a known "$" key (see Directives) is
//     dynamic: it is neither coerced nor type-checked.
//
// # Validation
//
// After normalisation every element's props are checked against its
// component: required props present, types and enums right, array
// entries of the right shape. Props a component does not name pass
// through, as in the reference. A *SpecError lists every problem in a
// fixed order (keeping the first 100) and its message is the reference's:
// "Invalid json-render spec: <path>: <msg>; …" with the first five and
// "; +N more issue(s)". Paths are dotted: "elements.card.props.title".
//
// The reference let some broken specs through; Normalize refuses them:
//
//   - an unknown component type (the reference drew a Card) is an error
//     naming it and up to three near names, nearest first:
//     `elements.card1.type: unknown component "Crad" (did you mean Card?)`;
//   - a key "__proto__", "constructor" or "prototype" anywhere;
//   - a child, or the root, that names no element;
//   - a cycle among children;
//   - more than MaxElements elements.
//
// An object of only "$" keys none of which is known is refused, as in the
// reference, with the nearest known keys (or all of them).
//
// # Streaming
//
// A Stream holds a spec under construction, starting from
// {"root": "", "elements": {}}. Apply takes RFC 6902 patches, as objects or
// as JSONL strings, applies each on its own and counts those that cannot
// apply as skipped, as the reference did; it refuses a whole call, with an
// error naming the patch, for a forbidden key or a patch that would pass
// the stream's Limits (patches per call, encoded bytes, elements). Every
// call that is not refused adds one to the spec version. Close validates
// the spec with Normalize, which the reference never did for streamed
// specs.
//
// The patches are applied by a small applier in this package rather than
// by github.com/evanphx/json-patch/v5, which the module proxy serves. That
// library patches encoded documents ([]byte in, []byte out), so applying
// each patch on its own, which the per-patch skip count needs, would
// decode and re-encode the whole spec once per patch; a 1,000-patch stream
// would cost the square of its size. The applier here changes decoded
// values in place, keeps the encoded size exact without encoding, and
// logs every change's inverse, so it can undo a patch that fails half-way
// or a call that passes a limit.
package jsonrender
