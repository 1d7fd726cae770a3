//go:build !linux

package memtrim

// DropImagePages is a no-op where the program's mappings cannot be listed.
func DropImagePages() (uintptr, error) { return 0, nil }
