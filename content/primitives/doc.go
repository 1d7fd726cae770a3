// Package primitives builds the HTML primitives: nineteen kinds of
// ready-made, self-contained HTML documents (a choice grid, a review
// sheet, a slide deck, …) that an agent fills with data and the canvas
// stores in an "html" node.
//
// # API
//
//   - Kinds lists the kinds in the reference's order; IsKind tests one.
//   - Descriptors describes every kind for the schema endpoint: title,
//     description, when to use it, default node size, data shape and an
//     example payload. Lookup returns one.
//   - Build renders a kind from data into a *Result: the document, the
//     enriched data to store as primitiveData, the summary and, for deck
//     and presentation, the presentation metadata.
//
// # Data
//
// Data is read loosely, as agents write it: a missing field or list is
// empty, and a number or boolean is accepted where text is expected. A
// field of the wrong JSON type is an error (*DataError) that names its
// path, such as "choice-grid: data.items[2].pros must be an array of
// strings". An unknown kind is an *UnknownKindError, whose message is the
// reference's "Unknown HTML primitive: <kind>.".
//
// Deck and presentation data is enriched as in the reference: slides
// (two placeholder slides when there are none), presentation, slideCount,
// slideTitles (title, else label, else name, else "Slide N"),
// speakerNotes (the non-blank notes) and, for a presentation,
// presentationTheme: a theme name (canvas, midnight, paper, aurora) or a
// theme object whose colours are var(--x), #hex, rgb(), rgba(), hsl() or
// hsla(). Anything else fails with the reference's message.
//
// # Documents
//
// Every document is rendered with html/template, so each string from the
// data is escaped for where it lands, and data reaches the documents'
// scripts only as JSON in a <script type="application/json"> element,
// where <, > and & are escaped. The documents load nothing: their
// stylesheet and scripts are inline, which suits the surface's
// "sandbox allow-scripts" policy. The stylesheet is driven by the CSS
// variables --bg, --panel, --surface, --border, --text, --text-secondary,
// --text-muted and --accent, dark by default, with variants for the
// canvas's [data-theme=light] and [data-theme=high-contrast].
//
// Decks show one slide at a time and move with the arrow keys, Space,
// Page Up/Down, Home and End, with buttons, or with the canvas's
// presentation-key messages when presented; N shows the speaker notes.
// The triage board, config editor and interaction prototype are live:
// their Copy JSON copies the state the user left them in.
//
// The templates, stylesheets and scripts are in templates/, the
// descriptors' examples in examples/; testdata/golden holds each example
// rendered (go test -update rewrites it).
package primitives
