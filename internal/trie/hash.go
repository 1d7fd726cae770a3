package trie

import (
	"hash/maphash"
	"math/bits"
)

// Hash is a persistent hash map: a compressed hash-array-mapped prefix
// trie (CHAMP). Each level spends 4 bits of the key's 64-bit hash; a slot
// holds an entry inline or a child node, and a node stores only its
// occupied slots. Keys whose whole hashes collide share a list at the
// bottom. Keys are hashed with hash/maphash (a per-process seed). The zero
// value is an empty map.
type Hash[K comparable, V any] struct {
	root *hnode[K, V]
	n    int
}

// hnode's slices are never changed once the node is reachable from a
// published map. Below the last hash bit (the collision level) data holds
// every entry and the bitmaps are unused.
type hnode[K comparable, V any] struct {
	dataMap, nodeMap uint16
	data             []hentry[K, V]
	kids             []*hnode[K, V]
}

type hentry[K comparable, V any] struct {
	key K
	val V
}

var seed = maphash.MakeSeed()

// testHash, set only by tests, replaces the hash of string keys (to force
// shared prefixes and whole-hash collisions).
var testHash func(string) uint64

func (h Hash[K, V]) hashOf(k K) uint64 {
	if testHash != nil {
		if s, ok := any(k).(string); ok {
			return testHash(s)
		}
	}
	return maphash.Comparable(seed, k)
}

// Len returns the number of entries.
func (h Hash[K, V]) Len() int { return h.n }

const collisionShift = 64

func slot(hv uint64, shift uint) uint16 { return 1 << ((hv >> shift) & mask) }

func index(bitmap, bit uint16) int { return bits.OnesCount16(bitmap & (bit - 1)) }

// Get returns the value for k.
func (h Hash[K, V]) Get(k K) (V, bool) {
	var zero V
	if h.root == nil {
		return zero, false
	}
	hv := h.hashOf(k)
	n := h.root
	for shift := uint(0); ; shift += stride {
		if shift >= collisionShift {
			for _, e := range n.data {
				if e.key == k {
					return e.val, true
				}
			}
			return zero, false
		}
		bit := slot(hv, shift)
		switch {
		case n.dataMap&bit != 0:
			if e := n.data[index(n.dataMap, bit)]; e.key == k {
				return e.val, true
			}
			return zero, false
		case n.nodeMap&bit != 0:
			n = n.kids[index(n.nodeMap, bit)]
		default:
			return zero, false
		}
	}
}

// Set returns the map with k set to v.
func (h Hash[K, V]) Set(k K, v V) Hash[K, V] {
	root, added := h.set(h.root, 0, h.hashOf(k), hentry[K, V]{k, v})
	h.root = root
	if added {
		h.n++
	}
	return h
}

func (h Hash[K, V]) set(n *hnode[K, V], shift uint, hv uint64, e hentry[K, V]) (*hnode[K, V], bool) {
	if shift >= collisionShift {
		if n == nil {
			return &hnode[K, V]{data: []hentry[K, V]{e}}, true
		}
		for i, old := range n.data {
			if old.key == e.key {
				return &hnode[K, V]{data: replaced(n.data, i, e)}, false
			}
		}
		return &hnode[K, V]{data: inserted(n.data, len(n.data), e)}, true
	}
	bit := slot(hv, shift)
	if n == nil {
		return &hnode[K, V]{dataMap: bit, data: []hentry[K, V]{e}}, true
	}
	switch {
	case n.dataMap&bit != 0:
		i := index(n.dataMap, bit)
		old := n.data[i]
		if old.key == e.key {
			return &hnode[K, V]{dataMap: n.dataMap, nodeMap: n.nodeMap, data: replaced(n.data, i, e), kids: n.kids}, false
		}
		// Two keys in one slot: both move down into a new child.
		child := h.pair(shift+stride, old, h.hashOf(old.key), e, hv)
		nodeMap := n.nodeMap | bit
		return &hnode[K, V]{
			dataMap: n.dataMap &^ bit, nodeMap: nodeMap,
			data: removed(n.data, i), kids: inserted(n.kids, index(nodeMap, bit), child),
		}, true
	case n.nodeMap&bit != 0:
		i := index(n.nodeMap, bit)
		child, added := h.set(n.kids[i], shift+stride, hv, e)
		return &hnode[K, V]{dataMap: n.dataMap, nodeMap: n.nodeMap, data: n.data, kids: replaced(n.kids, i, child)}, added
	default:
		dataMap := n.dataMap | bit
		return &hnode[K, V]{dataMap: dataMap, nodeMap: n.nodeMap, data: inserted(n.data, index(dataMap, bit), e), kids: n.kids}, true
	}
}

// pair builds the node holding two entries whose hashes agree below shift.
func (h Hash[K, V]) pair(shift uint, a hentry[K, V], ha uint64, b hentry[K, V], hb uint64) *hnode[K, V] {
	if shift >= collisionShift {
		return &hnode[K, V]{data: []hentry[K, V]{a, b}}
	}
	ba, bb := slot(ha, shift), slot(hb, shift)
	switch {
	case ba == bb:
		return &hnode[K, V]{nodeMap: ba, kids: []*hnode[K, V]{h.pair(shift+stride, a, ha, b, hb)}}
	case ba < bb:
		return &hnode[K, V]{dataMap: ba | bb, data: []hentry[K, V]{a, b}}
	default:
		return &hnode[K, V]{dataMap: ba | bb, data: []hentry[K, V]{b, a}}
	}
}

// Delete returns the map without k.
func (h Hash[K, V]) Delete(k K) Hash[K, V] {
	if h.root == nil {
		return h
	}
	root, ok := h.del(h.root, 0, h.hashOf(k), k)
	if !ok {
		return h
	}
	h.root, h.n = root, h.n-1
	return h
}

// del removes k below n. It returns nil for a node left empty; a child
// left with a single entry and no children is folded into its parent's
// slot, so the trie stays as shallow as its keys need.
func (h Hash[K, V]) del(n *hnode[K, V], shift uint, hv uint64, k K) (*hnode[K, V], bool) {
	if shift >= collisionShift {
		for i, e := range n.data {
			if e.key == k {
				if len(n.data) == 1 {
					return nil, true
				}
				return &hnode[K, V]{data: removed(n.data, i)}, true
			}
		}
		return n, false
	}
	bit := slot(hv, shift)
	switch {
	case n.dataMap&bit != 0:
		i := index(n.dataMap, bit)
		if n.data[i].key != k {
			return n, false
		}
		if len(n.data) == 1 && n.nodeMap == 0 {
			return nil, true
		}
		return &hnode[K, V]{dataMap: n.dataMap &^ bit, nodeMap: n.nodeMap, data: removed(n.data, i), kids: n.kids}, true
	case n.nodeMap&bit != 0:
		i := index(n.nodeMap, bit)
		child, ok := h.del(n.kids[i], shift+stride, hv, k)
		if !ok {
			return n, false
		}
		switch {
		case child == nil:
			if len(n.kids) == 1 && n.dataMap == 0 {
				return nil, true
			}
			return &hnode[K, V]{dataMap: n.dataMap, nodeMap: n.nodeMap &^ bit, data: n.data, kids: removed(n.kids, i)}, true
		case len(child.data) == 1 && len(child.kids) == 0:
			// The child's last entry moves up into this slot.
			dataMap := n.dataMap | bit
			return &hnode[K, V]{
				dataMap: dataMap, nodeMap: n.nodeMap &^ bit,
				data: inserted(n.data, index(dataMap, bit), child.data[0]), kids: removed(n.kids, i),
			}, true
		default:
			return &hnode[K, V]{dataMap: n.dataMap, nodeMap: n.nodeMap, data: n.data, kids: replaced(n.kids, i, child)}, true
		}
	default:
		return n, false
	}
}

// Range calls fn for every entry, in no particular order, until fn returns
// false.
func (h Hash[K, V]) Range(fn func(K, V) bool) {
	if h.root != nil {
		hrange(h.root, fn)
	}
}

func hrange[K comparable, V any](n *hnode[K, V], fn func(K, V) bool) bool {
	for _, e := range n.data {
		if !fn(e.key, e.val) {
			return false
		}
	}
	for _, c := range n.kids {
		if !hrange(c, fn) {
			return false
		}
	}
	return true
}

// The copy-on-write slice edits: each returns a new slice of exactly the
// needed length and leaves s untouched.

func replaced[T any](s []T, i int, v T) []T {
	out := make([]T, len(s))
	copy(out, s)
	out[i] = v
	return out
}

func inserted[T any](s []T, i int, v T) []T {
	out := make([]T, len(s)+1)
	copy(out, s[:i])
	out[i] = v
	copy(out[i+1:], s[i:])
	return out
}

func removed[T any](s []T, i int) []T {
	if len(s) == 1 {
		return nil
	}
	out := make([]T, len(s)-1)
	copy(out, s[:i])
	copy(out[i:], s[i+1:])
	return out
}
