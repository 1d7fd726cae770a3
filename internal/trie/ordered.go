package trie

// Ordered maps uint64 keys to non-nil pointers and iterates in ascending
// key order. Keys are spent 4 stride per level from the most significant
// end, and the trie is only as tall as its largest key needs, so dense
// small keys (ordinals from a counter) make a shallow, full trie. The zero
// value is an empty collection.
type Ordered[E any] struct {
	root *onode[E]
	// shift is the root's level: stride [shift, shift+4) of a key pick the
	// root's slot; 0 means the root is a leaf.
	shift uint
	n     int
}

// onode is a branch (kids set) or a leaf (vals set). Its array is never
// changed once the node is reachable from a published collection.
type onode[E any] struct {
	kids *[width]*onode[E]
	vals *[width]*E
}

// Len returns the number of entries.
func (o Ordered[E]) Len() int { return o.n }

// fits reports whether k is within the keys the root covers.
func (o Ordered[E]) fits(k uint64) bool {
	return o.shift+stride >= 64 || k>>(o.shift+stride) == 0
}

// Get returns the value at k.
func (o Ordered[E]) Get(k uint64) (*E, bool) {
	if o.root == nil || !o.fits(k) {
		return nil, false
	}
	n := o.root
	for s := o.shift; s > 0; s -= stride {
		n = n.kids[(k>>s)&mask]
		if n == nil {
			return nil, false
		}
	}
	v := n.vals[k&mask]
	return v, v != nil
}

// Set returns the collection with v at k. A nil v deletes k.
func (o Ordered[E]) Set(k uint64, v *E) Ordered[E] {
	if v == nil {
		return o.Delete(k)
	}
	if o.root == nil {
		o.shift = 0
	}
	for !o.fits(k) { // grow: the old root becomes slot 0 of a taller one
		if o.root != nil {
			o.root = &onode[E]{kids: &[width]*onode[E]{o.root}}
		}
		o.shift += stride
	}
	root, added := oset(o.root, o.shift, k, v)
	o.root = root
	if added {
		o.n++
	}
	return o
}

func oset[E any](n *onode[E], shift uint, k uint64, v *E) (*onode[E], bool) {
	i := (k >> shift) & mask
	if shift == 0 {
		vals := new([width]*E)
		if n != nil {
			*vals = *n.vals
		}
		added := vals[i] == nil
		vals[i] = v
		return &onode[E]{vals: vals}, added
	}
	kids := new([width]*onode[E])
	if n != nil {
		*kids = *n.kids
	}
	child, added := oset(kids[i], shift-stride, k, v)
	kids[i] = child
	return &onode[E]{kids: kids}, added
}

// Delete returns the collection without k.
func (o Ordered[E]) Delete(k uint64) Ordered[E] {
	if o.root == nil || !o.fits(k) {
		return o
	}
	root, removed := odel(o.root, o.shift, k)
	if !removed {
		return o
	}
	o.root, o.n = root, o.n-1
	if o.root == nil {
		return Ordered[E]{}
	}
	for o.shift > 0 && onlyFirst(o.root.kids) { // shrink while slot 0 holds everything
		o.root, o.shift = o.root.kids[0], o.shift-stride
	}
	return o
}

func odel[E any](n *onode[E], shift uint, k uint64) (*onode[E], bool) {
	i := (k >> shift) & mask
	if shift == 0 {
		if n.vals[i] == nil {
			return n, false
		}
		vals := *n.vals
		vals[i] = nil
		if vals == ([width]*E{}) {
			return nil, true
		}
		return &onode[E]{vals: &vals}, true
	}
	child := n.kids[i]
	if child == nil {
		return n, false
	}
	child, removed := odel(child, shift-stride, k)
	if !removed {
		return n, false
	}
	kids := *n.kids
	kids[i] = child
	if kids == ([width]*onode[E]{}) {
		return nil, true
	}
	return &onode[E]{kids: &kids}, true
}

func onlyFirst[E any](kids *[width]*onode[E]) bool {
	for _, c := range kids[1:] {
		if c != nil {
			return false
		}
	}
	return true
}

// Ascend calls fn for each entry in ascending key order until fn returns
// false.
func (o Ordered[E]) Ascend(fn func(k uint64, v *E) bool) {
	if o.root != nil {
		ascend(o.root, o.shift, 0, fn)
	}
}

func ascend[E any](n *onode[E], shift uint, prefix uint64, fn func(uint64, *E) bool) bool {
	if shift == 0 {
		for i, v := range n.vals {
			if v != nil && !fn(prefix|uint64(i), v) {
				return false
			}
		}
		return true
	}
	for i, c := range n.kids {
		if c != nil && !ascend(c, shift-stride, prefix|uint64(i)<<shift, fn) {
			return false
		}
	}
	return true
}

// Descend calls fn for each entry in descending key order until fn returns
// false.
func (o Ordered[E]) Descend(fn func(k uint64, v *E) bool) {
	if o.root != nil {
		descend(o.root, o.shift, 0, fn)
	}
}

func descend[E any](n *onode[E], shift uint, prefix uint64, fn func(uint64, *E) bool) bool {
	if shift == 0 {
		for i := width - 1; i >= 0; i-- {
			if v := n.vals[i]; v != nil && !fn(prefix|uint64(i), v) {
				return false
			}
		}
		return true
	}
	for i := width - 1; i >= 0; i-- {
		if c := n.kids[i]; c != nil && !descend(c, shift-stride, prefix|uint64(i)<<shift, fn) {
			return false
		}
	}
	return true
}

// Max returns the entry with the largest key.
func (o Ordered[E]) Max() (k uint64, v *E, ok bool) {
	o.Descend(func(key uint64, val *E) bool { k, v, ok = key, val, true; return false })
	return k, v, ok
}
