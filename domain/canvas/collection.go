package canvas

import (
	"github.com/benbjohnson/immutable"
)

var (
	stringHasher = immutable.NewHasher("")
	ordComparer  = immutable.NewComparer(uint64(0))
)

// ordered is a persistent collection of records keyed by id and iterated in
// insertion order (each record's ord). Every change returns a new value that
// shares structure with the old one, so a change costs O(log n) and old
// values stay valid for readers.
type ordered[T any] struct {
	byOrd *immutable.SortedMap[uint64, T]
	ords  *immutable.Map[string, uint64]
	// maxOrd is the largest ord present (0 when empty), so last() is a
	// lookup instead of an iterator seek.
	maxOrd uint64
}

func newOrdered[T any]() ordered[T] {
	return ordered[T]{
		byOrd: immutable.NewSortedMap[uint64, T](ordComparer),
		ords:  immutable.NewMap[string, uint64](stringHasher),
	}
}

func (o ordered[T]) get(id string) (T, bool) {
	var zero T
	if o.ords == nil {
		return zero, false
	}
	ord, ok := o.ords.Get(id)
	if !ok {
		return zero, false
	}
	return o.byOrd.Get(ord)
}

func (o ordered[T]) put(id string, ord uint64, v T) ordered[T] {
	if o.ords == nil {
		o = newOrdered[T]()
	}
	byOrd := o.byOrd
	next := ordered[T]{ords: o.ords, maxOrd: max(o.maxOrd, ord)}
	old, had := o.ords.Get(id)
	if !had || old != ord {
		next.ords = o.ords.Set(id, ord) // an update in place keeps the map
	}
	if had && old != ord {
		byOrd = byOrd.Delete(old)
		if old == o.maxOrd && ord < old {
			next.maxOrd = 0 // recomputed below
		}
	}
	next.byOrd = byOrd.Set(ord, v)
	if next.maxOrd == 0 {
		next.maxOrd = lastKey(next.byOrd)
	}
	return next
}

// lastKey finds the largest key by seeking (used only when the maximum is
// removed).
func lastKey[T any](m *immutable.SortedMap[uint64, T]) uint64 {
	if m.Len() == 0 {
		return 0
	}
	it := m.Iterator()
	it.Last()
	k, _, _ := it.Next()
	return k
}

func (o ordered[T]) delete(id string) ordered[T] {
	if o.ords == nil {
		return o
	}
	ord, ok := o.ords.Get(id)
	if !ok {
		return o
	}
	next := ordered[T]{byOrd: o.byOrd.Delete(ord), ords: o.ords.Delete(id), maxOrd: o.maxOrd}
	if ord == o.maxOrd {
		next.maxOrd = lastKey(next.byOrd)
	}
	return next
}

func (o ordered[T]) len() int {
	if o.ords == nil {
		return 0
	}
	return o.ords.Len()
}

// each calls fn in insertion order until fn returns false.
func (o ordered[T]) each(fn func(T) bool) {
	if o.byOrd == nil {
		return
	}
	it := o.byOrd.Iterator()
	for !it.Done() {
		_, v, _ := it.Next()
		if !fn(v) {
			return
		}
	}
}

// last returns the record latest in insertion order.
func (o ordered[T]) last() (T, bool) {
	var zero T
	if o.byOrd == nil || o.byOrd.Len() == 0 {
		return zero, false
	}
	return o.byOrd.Get(o.maxOrd)
}

// lastWhere returns the latest record (insertion order) for which keep is
// true, walking back from the end.
func (o ordered[T]) lastWhere(keep func(T) bool) (T, bool) {
	var zero T
	if o.byOrd == nil || o.byOrd.Len() == 0 {
		return zero, false
	}
	if v, ok := o.byOrd.Get(o.maxOrd); ok && keep(v) {
		return v, true // the common case: no seek
	}
	it := o.byOrd.Iterator()
	it.Last()
	for !it.Done() {
		_, v, _ := it.Prev()
		if keep(v) {
			return v, true
		}
	}
	return zero, false
}

func (o ordered[T]) byOrdinal(ord uint64) (T, bool) {
	var zero T
	if o.byOrd == nil {
		return zero, false
	}
	return o.byOrd.Get(ord)
}

func (o ordered[T]) slice() []T {
	out := make([]T, 0, o.len())
	o.each(func(v T) bool { out = append(out, v); return true })
	return out
}
