// Package diagram is the pure logic of the Excalidraw diagram preset: what
// POST /api/canvas/diagram (operation diagram.open, MCP canvas_add_diagram)
// sends to the hosted Excalidraw MCP App. It turns the caller's elements
// into the create_view tool's arguments, fits a camera to them and names
// the checkpoints the app saves. Connecting to the MCP server, creating the
// canvas node and answering HTTP belong to its callers; nothing here does
// I/O.
//
// # Elements
//
// NormalizeElements takes the elements field as JSON decoding gave it: an
// array of Excalidraw element objects, or that array as a JSON string (the
// form create_view itself takes). It returns a fresh array; the caller's
// maps are not modified. The rules:
//
//   - Missing, empty ("" or whitespace, [] or "[]"), invalid JSON, JSON
//     that is not an array and array entries that are not objects are
//     errors (*InputError, a 400 for an HTTP caller). Each names the field,
//     "elements" or "elements[i]".
//   - A non-empty array with nothing renderable (no element of a drawable
//     type: rectangle, ellipse, diamond, arrow, line, text, freedraw,
//     image, frame; elements with isDeleted:true do not count) gets the
//     default rectangle, id "pmx-start", labelled "PMX Canvas", appended
//     after what was given, so a camera, delete or unknown element sent
//     alone still reaches the app and the view is never blank. A
//     restoreCheckpoint element counts as renderable: it brings back a
//     saved drawing, and adding a rectangle on top would change it.
//   - Labels: a string label ("label": "Start") becomes create_view's
//     label object {"text": "Start"}. A text element bound to a container
//     (containerId naming a rectangle, ellipse, diamond or arrow in the
//     same array, before or after it) becomes that container's label
//     {text, fontSize?} and is dropped as an element; its originalText
//     (Excalidraw's unwrapped text) is preferred over text. An explicit
//     label with text on the container wins, and the bound text is then
//     dropped as a duplicate. Only the first bound text of a container is
//     merged. The container's boundElements entries for the merged text are
//     removed. A text whose containerId names no container in the array
//     loses the containerId and stays a free text element (Excalidraw
//     would otherwise hide it).
//   - Everything else is kept as given: unknown fields, unknown element
//     types and the pseudo elements cameraUpdate, restoreCheckpoint and
//     delete, in their original order.
//
// # Camera
//
// Camera fits a cameraUpdate pseudo element to the drawable elements'
// bounding box. Geometry comes from x, y, width and height (missing numbers
// count as 0, negative sizes extend left or up); arrows, lines and
// freedraw use their points when they have them; a text element without a
// size is estimated from its text and fontSize (0.6 em per character, 1.25
// em per line, fontSize 20 when absent). Elements whose geometry is not a
// finite number are ignored. The padding on every side is max(80, 18% of
// the larger extent). The camera is the smallest standard 4:3 size (400×300,
// 600×450, 800×600, 1200×900, 1600×1200) that holds the padded box; content
// bigger than 1600×1200 gets a larger 4:3 camera (the padded size, widened
// to 4:3 and rounded up to a multiple of 4 so both sides are whole) rather
// than a cropped one. The camera is centred on the content
// and its x and y are rounded to hundredths. With nothing drawable the box
// is the point (0,0), giving 400×300 centred on the origin.
//
// WithCamera prepends that camera when the elements have no cameraUpdate of
// their own (an existing one is the caller's choice and is kept) and there
// is something drawable to fit; when the array starts with a
// restoreCheckpoint the camera goes right after it, as the app expects
// the restore first.
//
// # Checkpoints
//
// The Excalidraw app saves its scene as a checkpoint whose id the host
// gives it in toolResult.structuredContent.checkpointId: CheckpointID of
// the node id ("pmx-<sanitized seed>"). When the app saves one, the node's
// toolInput.elements become RestoreElements: the restoreCheckpoint and a
// 4:3 camera, so a reopened node restores the drawing instead of redrawing
// the original elements.
//
// # Opening
//
// BuildOpen makes the whole open input: server URL (DefaultServerURL unless
// given; only http and https are accepted), server name, tool name and
// {"elements": <the final array as a JSON string>}.
package diagram
