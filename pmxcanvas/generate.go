package pmxcanvas

// The per-operation methods (zz_generated_ops.go) and the generated tables
// of docs/ come from the catalog; run `go generate ./pmxcanvas` after
// changing it. Tests fail while either is stale.
//go:generate go run ../internal/gen/cmd/opsgen
//go:generate go run ../internal/gen/cmd/docgen
