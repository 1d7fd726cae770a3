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
	if old, ok := o.ords.Get(id); ok && old != ord {
		byOrd = byOrd.Delete(old)
	}
	return ordered[T]{byOrd: byOrd.Set(ord, v), ords: o.ords.Set(id, ord)}
}

func (o ordered[T]) delete(id string) ordered[T] {
	if o.ords == nil {
		return o
	}
	ord, ok := o.ords.Get(id)
	if !ok {
		return o
	}
	return ordered[T]{byOrd: o.byOrd.Delete(ord), ords: o.ords.Delete(id)}
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
	it := o.byOrd.Iterator()
	it.Last()
	_, v, ok := it.Next()
	return v, ok
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
