// Package trie holds the persistent collections the canvas state is built
// from: Ordered, a radix trie over uint64 keys iterated in key order, and
// Hash, a compressed hash trie (CHAMP). A change returns a new collection
// that shares every untouched node with the old one, so an old collection
// stays valid, unchanged, for readers on other goroutines, and a change
// allocates only the path to its key.
//
// Both use 16-way nodes holding pointers (no interface slots, no node per
// entry): a change on a 20,000-entry collection copies 0.6 to 0.9 KB, where
// the general-purpose library they replace copied 1.3 to 2.3 KB, and the
// write path's garbage was mostly those copies (docs/architecture.md,
// "Persistent collections").
package trie

const (
	stride = 4
	width  = 1 << stride
	mask   = width - 1
)
