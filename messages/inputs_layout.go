package messages

import "encoding/json"

// GroupCreateInput is the input of group.create (POST /api/canvas/group).
type GroupCreateInput struct {
	Title       *string  `json:"title"`
	ChildIDs    []string `json:"childIds"`
	Color       *string  `json:"color"`
	X           *float64 `json:"x"`
	Y           *float64 `json:"y"`
	Width       *float64 `json:"width"`
	Height      *float64 `json:"height"`
	ChildLayout *string  `json:"childLayout"`
}

// GroupAddInput is the input of group.add (POST /api/canvas/group/add).
type GroupAddInput struct {
	GroupID     string   `json:"groupId"`
	ChildIDs    []string `json:"childIds"`
	ChildLayout *string  `json:"childLayout"`
}

// GroupRemoveInput is the input of group.remove (POST /api/canvas/group/ungroup).
type GroupRemoveInput struct {
	GroupID string `json:"groupId"`
}

// PinSetInput is the input of pin.set (POST /api/canvas/context-pins).
type PinSetInput struct {
	NodeIDs []string `json:"nodeIds"`
	// Mode is set (default), add or remove.
	Mode *string `json:"mode"`
}

// EmptyInput is the input of operations that take none.
type EmptyInput struct{}

// SearchInput is the input of search (GET /api/canvas/search).
type SearchInput struct {
	Q     string `json:"q"`
	Limit *int   `json:"limit"`
}

// ViewportInput is the input of viewport.set (POST /api/canvas/viewport).
type ViewportInput struct {
	X             *float64 `json:"x"`
	Y             *float64 `json:"y"`
	Scale         *float64 `json:"scale"`
	RecordHistory *bool    `json:"recordHistory"`
}

// FocusInput is the input of node.focus (POST /api/canvas/focus).
type FocusInput struct {
	ID    string `json:"id"`
	NoPan *bool  `json:"noPan"`
}

// FitInput is the input of view.fit (POST /api/canvas/fit).
type FitInput struct {
	Width    *float64 `json:"width"`
	Height   *float64 `json:"height"`
	Padding  *float64 `json:"padding"`
	MaxScale *float64 `json:"maxScale"`
	NodeIDs  []string `json:"nodeIds"`
}

// ArrangeInput is the input of arrange (POST /api/canvas/arrange).
type ArrangeInput struct {
	Layout *string `json:"layout"`
}

// ThemeSetInput is the input of theme.set (POST /api/canvas/theme).
type ThemeSetInput struct {
	Theme string `json:"theme"`
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
	Updates       []GeometryUpdate `json:"updates"`
	RecordHistory *bool            `json:"recordHistory"`
}

// SnapshotListInput is the input of snapshot.list (GET /api/canvas/snapshots).
type SnapshotListInput struct {
	Limit  *int    `json:"limit"`
	Q      *string `json:"q"`
	Query  *string `json:"query"`
	Before *string `json:"before"`
	After  *string `json:"after"`
	All    *bool   `json:"all"`
}

// SnapshotSaveInput is the input of snapshot.save (POST /api/canvas/snapshots).
type SnapshotSaveInput struct {
	Name string `json:"name"`
}

// SnapshotGCInput is the input of snapshot.gc (POST /api/canvas/snapshots/gc).
// keep may be a number or a numeric string, as in the reference.
type SnapshotGCInput struct {
	Keep       any   `json:"keep"`
	DryRun     *bool `json:"dryRun"`
	DryRunDash *bool `json:"dry-run"`
}

// SnapshotRefInput names a snapshot by id or name (path parameter).
type SnapshotRefInput struct {
	ID string `json:"id"`
}

// SnapshotDiffQueryInput is the input of snapshot.diff.query
// (GET /api/canvas/snapshots/diff?name=|id=).
type SnapshotDiffQueryInput struct {
	Name *string `json:"name"`
	ID   *string `json:"id"`
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
	Operations []BatchOp `json:"operations"`
}

// AnnotationAddInput is the input of annotation.add (POST /api/canvas/annotation).
type AnnotationAddInput struct {
	ID     *string  `json:"id"`
	Type   *string  `json:"type"`
	Points []any    `json:"points"`
	Width  *float64 `json:"width"`
	Color  *string  `json:"color"`
	Label  *string  `json:"label"`
	Text   *string  `json:"text"`
}

// IDInput names an object by the :id path parameter.
type IDInput struct {
	ID string `json:"id"`
}

// ExportInput is the input of canvas.export (GET /api/canvas/export).
type ExportInput struct {
	Format *string `json:"format"`
}

// ImportInput is the input of canvas.import (POST /api/canvas/import): a
// JSON Canvas document, plus replace to clear the canvas first.
type ImportInput struct {
	Nodes   json.RawMessage `json:"nodes"`
	Edges   json.RawMessage `json:"edges"`
	Replace *bool           `json:"replace"`
}
