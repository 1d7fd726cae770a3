package canvas

import "github.com/pmxcanvas/pmx-canvas/internal/trie"

// ordered is a persistent collection of records keyed by id and iterated in
// insertion order (each record's ord). Every change returns a new value that
// shares structure with the old one, so a change costs O(log n) and old
// values stay valid for readers. The zero value is empty.
type ordered[E any] struct {
	byOrd trie.Ordered[E]
	ords  trie.Hash[string, uint64]
}

func (o ordered[E]) get(id string) (*E, bool) {
	ord, ok := o.ords.Get(id)
	if !ok {
		return nil, false
	}
	return o.byOrd.Get(ord)
}

func (o ordered[E]) put(id string, ord uint64, v *E) ordered[E] {
	next := o
	old, had := o.ords.Get(id)
	if !had || old != ord {
		next.ords = o.ords.Set(id, ord) // an update in place keeps the map
	}
	if had && old != ord {
		next.byOrd = next.byOrd.Delete(old)
	}
	next.byOrd = next.byOrd.Set(ord, v)
	return next
}

func (o ordered[E]) delete(id string) ordered[E] {
	ord, ok := o.ords.Get(id)
	if !ok {
		return o
	}
	return ordered[E]{byOrd: o.byOrd.Delete(ord), ords: o.ords.Delete(id)}
}

func (o ordered[E]) len() int { return o.ords.Len() }

// each calls fn in insertion order until fn returns false.
func (o ordered[E]) each(fn func(*E) bool) {
	o.byOrd.Ascend(func(_ uint64, v *E) bool { return fn(v) })
}

// last returns the record latest in insertion order (a walk down the
// trie's right edge).
func (o ordered[E]) last() (*E, bool) {
	_, v, ok := o.byOrd.Max()
	return v, ok
}

// lastWhere returns the latest record (insertion order) for which keep is
// true, walking back from the end.
func (o ordered[E]) lastWhere(keep func(*E) bool) (*E, bool) {
	if v, ok := o.last(); !ok || keep(v) {
		return v, ok // the common case: no walk
	}
	var found *E
	o.byOrd.Descend(func(_ uint64, v *E) bool {
		if keep(v) {
			found = v
			return false
		}
		return true
	})
	return found, found != nil
}

func (o ordered[E]) byOrdinal(ord uint64) (*E, bool) { return o.byOrd.Get(ord) }

func (o ordered[E]) slice() []*E {
	out := make([]*E, 0, o.len())
	o.each(func(v *E) bool { out = append(out, v); return true })
	return out
}
