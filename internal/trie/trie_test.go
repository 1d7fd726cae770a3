package trie

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// version is a collection value with the model it must equal.
type orderedVersion struct {
	o     Ordered[int]
	model map[uint64]int
}

// checkOrdered asserts o holds exactly model, in ascending and descending
// order, with the right Len and Max.
func checkOrdered(t *testing.T, o Ordered[int], model map[uint64]int) {
	t.Helper()
	if o.Len() != len(model) {
		t.Fatalf("Len = %d, want %d", o.Len(), len(model))
	}
	keys := make([]uint64, 0, len(model))
	for k, v := range model {
		keys = append(keys, k)
		got, ok := o.Get(k)
		if !ok || *got != v {
			t.Fatalf("Get(%d) = %v, %v; want %d", k, got, ok, v)
		}
	}
	slices.Sort(keys)
	var asc []uint64
	o.Ascend(func(k uint64, v *int) bool {
		if *v != model[k] {
			t.Fatalf("Ascend gave %d=%d, want %d", k, *v, model[k])
		}
		asc = append(asc, k)
		return true
	})
	if !slices.Equal(asc, keys) {
		t.Fatalf("Ascend keys %v, want %v", asc, keys)
	}
	var desc []uint64
	o.Descend(func(k uint64, _ *int) bool { desc = append(desc, k); return true })
	slices.Reverse(desc)
	if !slices.Equal(desc, keys) {
		t.Fatalf("Descend keys (reversed) %v, want %v", desc, keys)
	}
	k, v, ok := o.Max()
	if len(keys) == 0 {
		if ok {
			t.Fatalf("Max of an empty collection = %d", k)
		}
	} else if !ok || k != keys[len(keys)-1] || *v != model[k] {
		t.Fatalf("Max = %d, %v; want %d", k, ok, keys[len(keys)-1])
	}
}

// keyGen draws keys from a small dense range (ordinals), a sparse wide one
// and the extremes, so the trie grows, shrinks and spans all 64 bits.
func keyGen(r *rand.Rand) uint64 {
	switch r.IntN(4) {
	case 0, 1:
		return uint64(r.IntN(300))
	case 2:
		return r.Uint64() >> r.IntN(64)
	default:
		return []uint64{0, 1, 15, 16, 255, 256, 1<<63 - 1, 1 << 63, ^uint64(0)}[r.IntN(9)]
	}
}

func TestOrderedAgainstAMap(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		o := Ordered[int]{}
		model := map[uint64]int{}
		var versions []orderedVersion
		for step := range 400 {
			k := keyGen(r)
			if r.IntN(3) == 0 {
				o = o.Delete(k)
				delete(model, k)
			} else {
				v := step
				o = o.Set(k, &v)
				model[k] = v
			}
			if step%25 == 0 {
				versions = append(versions, orderedVersion{o, maps(model)})
			}
		}
		checkOrdered(t, o, model)
		for _, ver := range versions { // old values are untouched by later changes
			checkOrdered(t, ver.o, ver.model)
		}
		for k := range model { // deleting everything leaves the zero value
			o = o.Delete(k)
		}
		if o != (Ordered[int]{}) {
			t.Fatalf("seed %d: emptied collection is %+v, not the zero value", seed, o)
		}
	}
}

func TestOrderedSetNilDeletesAndStopsEarly(t *testing.T) {
	one, two := 1, 2
	o := Ordered[int]{}.Set(5, &one).Set(700, &two)
	if o.Set(5, nil).Len() != 1 {
		t.Fatal("Set(k, nil) did not delete k")
	}
	var seen []uint64
	o.Ascend(func(k uint64, _ *int) bool { seen = append(seen, k); return false })
	if !slices.Equal(seen, []uint64{5}) {
		t.Fatalf("Ascend after false = %v, want [5]", seen)
	}
	if _, ok := o.Get(1 << 40); ok {
		t.Fatal("Get of a key above the root found something")
	}
	if got := o.Delete(1 << 40); got != o {
		t.Fatal("Delete of an absent key changed the collection")
	}
}

func maps[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

type hashVersion struct {
	h     Hash[string, int]
	model map[string]int
}

func checkHash(t *testing.T, h Hash[string, int], model map[string]int) {
	t.Helper()
	if h.Len() != len(model) {
		t.Fatalf("Len = %d, want %d", h.Len(), len(model))
	}
	for k, v := range model {
		if got, ok := h.Get(k); !ok || got != v {
			t.Fatalf("Get(%q) = %d, %v; want %d", k, got, ok, v)
		}
	}
	seen := map[string]int{}
	h.Range(func(k string, v int) bool {
		if _, dup := seen[k]; dup {
			t.Fatalf("Range gave %q twice", k)
		}
		seen[k] = v
		return true
	})
	if len(seen) != len(model) {
		t.Fatalf("Range gave %d entries, want %d", len(seen), len(model))
	}
	for k, v := range seen {
		if model[k] != v {
			t.Fatalf("Range gave %q=%d, want %d", k, v, model[k])
		}
	}
}

func TestHashAgainstAMap(t *testing.T) {
	hashers := map[string]func(string) uint64{
		"maphash": nil,
		// Degenerate hashes force splits to the bottom and collision lists.
		"eight hashes": func(s string) uint64 { return uint64(len(s)%8) * 0x1111111111111111 },
		"one hash":     func(string) uint64 { return 42 },
	}
	for name, hash := range hashers {
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(30) {
				r := rand.New(rand.NewPCG(seed, 11))
				testHash = hash
				defer func() { testHash = nil }()
				h := Hash[string, int]{}
				model := map[string]int{}
				var versions []hashVersion
				for step := range 300 {
					k := string(rune('a'+r.IntN(26))) + string(make([]byte, r.IntN(12)))
					if r.IntN(3) == 0 {
						h = h.Delete(k)
						delete(model, k)
					} else {
						h = h.Set(k, step)
						model[k] = step
					}
					if _, ok := h.Get(k + "?"); ok {
						t.Fatalf("Get found a key never set")
					}
					if step%20 == 0 {
						versions = append(versions, hashVersion{h, maps(model)})
					}
				}
				checkHash(t, h, model)
				for _, v := range versions {
					checkHash(t, v.h, v.model)
				}
				for k := range model {
					h = h.Delete(k)
				}
				if h.Len() != 0 || h.root != nil {
					t.Fatalf("seed %d: emptied map has Len %d, root %v", seed, h.Len(), h.root)
				}
			}
		})
	}
}

// After deletes, the trie is as shallow as a fresh one holding the same
// keys: a lone entry left in a child moves back up.
func TestHashDeleteFoldsLoneEntriesUp(t *testing.T) {
	h := Hash[uint64, int]{}
	for k := range uint64(2000) {
		h = h.Set(k, int(k))
	}
	for k := uint64(1); k < 2000; k++ {
		h = h.Delete(k)
	}
	if h.root == nil || len(h.root.kids) != 0 || len(h.root.data) != 1 || h.root.data[0].key != 0 {
		t.Fatalf("one key left: root %+v, want a root holding just key 0", h.root)
	}
}

func FuzzOrdered(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0x80, 5, 0xff})
	f.Fuzz(func(t *testing.T, ops []byte) {
		o := Ordered[int]{}
		model := map[uint64]int{}
		for i := 0; i+1 < len(ops); i += 2 {
			k := uint64(ops[i+1]) << (ops[i] & 0x38) // spread keys over the width
			if ops[i]&1 == 0 {
				v := i
				o, model[k] = o.Set(k, &v), v
			} else {
				o = o.Delete(k)
				delete(model, k)
			}
		}
		checkOrdered(t, o, model)
	})
}

func FuzzHash(f *testing.F) {
	f.Add([]byte("set a, set b, del a"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		testHash = func(s string) uint64 { return uint64(len(s)) * 0x0101010101010101 }
		defer func() { testHash = nil }()
		h := Hash[string, int]{}
		model := map[string]int{}
		for i := 0; i+1 < len(ops); i += 2 {
			k := string(ops[i+1 : i+1+int(ops[i]>>5)%max(1, len(ops)-i-1)])
			if ops[i]&1 == 0 {
				h, model[k] = h.Set(k, i), i
			} else {
				h = h.Delete(k)
				delete(model, k)
			}
		}
		checkHash(t, h, model)
	})
}
