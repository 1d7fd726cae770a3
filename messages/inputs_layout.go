package messages

import "encoding/json"

// GroupCreateInput is the input of group.create (POST /api/canvas/group).
type GroupCreateInput struct {
	Title       *string  `json:"title" doc:"Group title." default:"\"Group\""`
	ChildIDs    []string `json:"childIds" doc:"Members; every id must exist. The frame fits them unless x/y/width/height are given."`
	Color       *string  `json:"color" doc:"Frame accent colour (CSS)."`
	X           *float64 `json:"x" doc:"Frame X (computed from the members when absent)."`
	Y           *float64 `json:"y" doc:"Frame Y (computed from the members when absent)."`
	Width       *float64 `json:"width" doc:"Frame width (computed when absent)."`
	Height      *float64 `json:"height" doc:"Frame height (computed when absent)."`
	ChildLayout *string  `json:"childLayout" doc:"Pack the members in this layout; omit to keep their positions." enum:"childLayouts"`
	OutputShape
}

// GroupAddInput is the input of group.add (POST /api/canvas/group/add).
type GroupAddInput struct {
	GroupID     string   `json:"groupId" doc:"Existing group node id." pmx:"required,handler"`
	ChildIDs    []string `json:"childIds" doc:"Nodes to move into the group." pmx:"required,handler"`
	ChildLayout *string  `json:"childLayout" doc:"Pack the members in this layout while grouping." enum:"childLayouts"`
}

// GroupRemoveInput is the input of group.remove (POST /api/canvas/group/ungroup).
type GroupRemoveInput struct {
	GroupID string `json:"groupId" doc:"Group to empty." pmx:"required,handler"`
}

// PinSetInput is the input of pin.set (POST /api/canvas/context-pins).
type PinSetInput struct {
	NodeIDs []string `json:"nodeIds" doc:"Node ids." pmx:"required"`
	// Mode is set (default), add or remove.
	Mode *string `json:"mode" doc:"set (default) replaces the pins, add appends, remove unpins." enum:"pinModes"`
}

// EmptyInput is the input of operations that take none.
type EmptyInput struct{}

// SearchInput is the input of search (GET /api/canvas/search).
type SearchInput struct {
	Q     string  `json:"q" doc:"Keywords (the HTTP name); wins over query."`
	Query *string `json:"query" doc:"Keywords (the MCP tools' name for q)."`
	Limit *int    `json:"limit" doc:"Most results to return (all when absent); resultCount counts every match." min:"1"`
}

// ViewportInput is the input of viewport.set (POST /api/canvas/viewport).
type ViewportInput struct {
	X             *float64 `json:"x" doc:"Viewport pan X (screen pixels)."`
	Y             *float64 `json:"y" doc:"Viewport pan Y (screen pixels)."`
	Scale         *float64 `json:"scale" doc:"Zoom (1 = 100%)."`
	RecordHistory *bool    `json:"recordHistory" doc:"true makes the change an undo step."`
}

// FocusInput is the input of node.focus (POST /api/canvas/focus).
type FocusInput struct {
	ID    string `json:"id" doc:"Node to focus." pmx:"required,handler"`
	NoPan *bool  `json:"noPan" doc:"true raises the node without moving the view."`
}

// FitInput is the input of view.fit (POST /api/canvas/fit).
type FitInput struct {
	Width    *float64 `json:"width" doc:"Screen width the fit assumes." default:"1440"`
	Height   *float64 `json:"height" doc:"Screen height the fit assumes." default:"900"`
	Padding  *float64 `json:"padding" doc:"World-space padding." default:"60"`
	MaxScale *float64 `json:"maxScale" doc:"Zoom cap." default:"1"`
	NodeIDs  []string `json:"nodeIds" doc:"Fit only these nodes (all when absent or empty)."`
}

// ArrangeInput is the input of arrange (POST /api/canvas/arrange).
type ArrangeInput struct {
	Layout *string `json:"layout" doc:"grid (default), column (vertical stack) or flow (horizontal row)." enum:"childLayouts"`
}

// ThemeSetInput is the input of theme.set (POST /api/canvas/theme).
type ThemeSetInput struct {
	Theme string `json:"theme" doc:"The board theme." enum:"themes"`
}

// GeometryUpdate is one entry of the browser's bulk geometry update.
type GeometryUpdate struct {
	ID           string      `json:"id"`
	Position     *PointInput `json:"position"`
	Size         *SizeInput  `json:"size"`
	Collapsed    *bool       `json:"collapsed"`
	DockPosition Opt[string] `json:"dockPosition"`
}

// UpdateInput is the input of layout.update (POST /api/canvas/update), what
// the browser sends at the end of a drag.
type UpdateInput struct {
	Updates       []GeometryUpdate `json:"updates" doc:"Geometry patches: [{id, position?, size?, collapsed?, dockPosition?}], applied together."`
	RecordHistory *bool            `json:"recordHistory" doc:"true makes the patch one undo step (default: not recorded, like a drag)."`
}

// SnapshotListInput is the input of snapshot.list (GET /api/canvas/snapshots).
type SnapshotListInput struct {
	Limit  *int    `json:"limit" doc:"Most snapshots to list." default:"20" min:"1"`
	Q      *string `json:"q" doc:"Alias of query; wins when both are strings."`
	Query  *string `json:"query" doc:"Case-insensitive filter on id or name."`
	Before *string `json:"before" doc:"Only snapshots created at or before this ISO time."`
	After  *string `json:"after" doc:"Only snapshots created at or after this ISO time."`
	All    *bool   `json:"all" doc:"true lists every snapshot (no limit)."`
}

// SnapshotSaveInput is the input of snapshot.save (POST /api/canvas/snapshots).
type SnapshotSaveInput struct {
	Name string `json:"name" doc:"Snapshot name (save; required there)."`
}

// SnapshotGCInput is the input of snapshot.gc (POST /api/canvas/snapshots/gc).
// keep may be a number or a numeric string, as in the reference.
type SnapshotGCInput struct {
	Keep       any   `json:"keep" doc:"Newest snapshots to keep." default:"20" type:"number"`
	DryRun     *bool `json:"dryRun" doc:"Report what would be deleted without deleting."`
	DryRunDash *bool `json:"dry-run" mcp:"-" cli:"-" doc:"Same as dryRun (the CLI flag spelling)."`
}

// SnapshotRefInput names a snapshot by id or name (path parameter).
type SnapshotRefInput struct {
	ID string `json:"id" doc:"Ignored: use snapshot." pmx:"required"`
}

// SnapshotDiffQueryInput is the input of snapshot.diff.query
// (GET /api/canvas/snapshots/diff?name=|id=).
type SnapshotDiffQueryInput struct {
	Name *string `json:"name" doc:"Snapshot name to compare the canvas with."`
	ID   *string `json:"id" doc:"Snapshot id to compare the canvas with."`
}

// BatchOp is one entry of a batch.
type BatchOp struct {
	Op     string          `json:"op"`
	Assign string          `json:"assign"`
	Args   json.RawMessage `json:"args"`
}

// BatchInput is the input of canvas.batch (POST /api/canvas/batch). A bare
// JSON array body is taken as the operations.
type BatchInput struct {
	Operations []BatchOp `json:"operations" doc:"The entries, run in order." pmx:"required"`
	OutputShape
}

// AnnotationAddInput is the input of annotation.add (POST /api/canvas/annotation).
type AnnotationAddInput struct {
	ID     *string  `json:"id" doc:"Annotation id (default: generated)."`
	Type   *string  `json:"type" doc:"freehand (a stroke through points) or text (a label)." enum:"annotationTypes"`
	Points []any    `json:"points" doc:"Freehand stroke: [{x, y}] in world coordinates."`
	Width  *float64 `json:"width" doc:"Stroke width."`
	Color  *string  `json:"color" doc:"Stroke or text colour (CSS)."`
	Label  *string  `json:"label" doc:"Short label shown with the annotation."`
	Text   *string  `json:"text" doc:"Text annotations: the text."`
}

// IDInput names an object by the :id path parameter.
type IDInput struct {
	ID string `json:"id" doc:"Annotation id." pmx:"required,handler"`
}

// ExportInput is the input of canvas.export (GET /api/canvas/export).
// Nodes and region choose what an svg or png export draws; they are
// strings so that a query (?nodes=a,b&region=0,0,800,600), a flag and a
// tool argument carry them the same way.
type ExportInput struct {
	Format *string `json:"format" doc:"Export format: jsoncanvas (the default), svg (drawn on the server) or png (rasterised in Chromium)." enum:"exportFormats"`
	Nodes  *string `json:"nodes" doc:"svg/png: only these nodes (comma-separated ids; a group brings its members) and the edges between them, fitted."`
	Region *string `json:"region" doc:"svg/png: only the board region x,y,w,h (board units)."`
	Theme  *string `json:"theme" doc:"svg/png: draw in this theme instead of the canvas's." enum:"themes"`
}

// ImportInput is the input of canvas.import (POST /api/canvas/import): a
// JSON Canvas document, plus replace to clear the canvas first.
type ImportInput struct {
	Nodes   json.RawMessage `json:"nodes" doc:"JSON Canvas nodes."`
	Edges   json.RawMessage `json:"edges" doc:"JSON Canvas edges."`
	Replace *bool           `json:"replace" doc:"true replaces the canvas; otherwise the import is added."`
}
