package jsonrender

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// This file is a small RFC 6902 JSON Patch applier over decoded JSON
// values (see the package doc for why it is not a library). Every change
// it makes is logged as its inverse, so a patch that fails half-way (a
// move whose add fails) or a call that passes a limit can be undone.

// pointer is a parsed RFC 6901 JSON Pointer: its unescaped tokens.
type pointer []string

// parsePointer parses s. "" is the whole document.
func parsePointer(s string) (pointer, error) {
	if s == "" {
		return pointer{}, nil
	}
	if s[0] != '/' {
		return nil, fmt.Errorf("pointer %q does not start with /", s)
	}
	toks := strings.Split(s[1:], "/")
	for i, t := range toks {
		if !strings.Contains(t, "~") {
			continue
		}
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || t[j+1] != '0' && t[j+1] != '1') {
				return nil, fmt.Errorf("pointer %q has a ~ not followed by 0 or 1", s)
			}
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// String writes the pointer back in RFC 6901 form.
func (p pointer) String() string {
	var b strings.Builder
	for _, t := range p {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// hasPrefix reports whether q is p or below it.
func (p pointer) hasPrefix(q pointer) bool {
	if len(q) > len(p) {
		return false
	}
	for i := range q {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// index parses an array index token for an array of length n. "-" (one
// past the end) is allowed only where end is true (add).
func index(tok string, n int, end bool) (int, error) {
	if tok == "-" {
		if end {
			return n, nil
		}
		return 0, errors.New(`"-" names no element here`)
	}
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return 0, fmt.Errorf("%q is not an array index", tok)
		}
	}
	i, err := strconv.Atoi(tok)
	limit := n - 1
	if end {
		limit = n
	}
	if err != nil || i > limit {
		return 0, fmt.Errorf("index %s is out of range (length %d)", tok, n)
	}
	return i, nil
}

// inverse is one logged change's undo: add, remove or replace value at path.
type inverse struct {
	op    byte // 'a', 'r' or 'p'
	path  pointer
	value any
}

// errLimit marks a change refused because it would pass a limit; the
// caller turns it into a *LimitError naming the patch.
type errLimit struct{ size int }

func (e *errLimit) Error() string { return "over the byte limit" }

// doc is a JSON document being patched: its value, its encoded size (kept
// exact as it changes) and the undo log of its changes.
type doc struct {
	root     map[string]any
	size     int
	undo     []inverse
	maxBytes int
}

// get returns the value at p.
func (d *doc) get(p pointer) (any, error) {
	var cur any = d.root
	for i, tok := range p {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("%s does not exist", p[:i+1])
			}
			cur = v
		case []any:
			j, err := index(tok, len(c), false)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", p[:i+1], err)
			}
			cur = c[j]
		default:
			return nil, fmt.Errorf("%s is a %s, not an object or array", p[:i], typeOf(cur))
		}
	}
	return cur, nil
}

// set stores v at p, which exists: the write-back of a changed array.
func (d *doc) set(p pointer, v any) {
	parent, _ := d.get(p[:len(p)-1])
	switch c := parent.(type) {
	case map[string]any:
		c[p[len(p)-1]] = v
	case []any:
		j, _ := index(p[len(p)-1], len(c), false)
		c[j] = v
	}
}

// replaceRoot makes v, which must be an object, the whole document. The
// caller has counted its size.
func (d *doc) replaceRoot(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("the spec must be an object, not a %s", typeOf(v))
	}
	d.undo = append(d.undo, inverse{'p', pointer{}, d.root})
	d.root = m
	return nil
}

// grow adds n to the size, refusing to pass maxBytes.
func (d *doc) grow(n int) error {
	if n > 0 && d.maxBytes > 0 && d.size+n > d.maxBytes {
		return &errLimit{d.size + n}
	}
	d.size += n
	return nil
}

// add is RFC 6902 add: it sets an object member or inserts into an array.
func (d *doc) add(p pointer, v any) error {
	return d.insert(p, encodedLen(v), func() any { return v })
}

// insert is add of the value that value returns, whose encoded length is
// vlen. The size is checked before value is called, so a copy cannot allocate
// past the limit.
func (d *doc) insert(p pointer, vlen int, value func() any) error {
	if len(p) == 0 {
		size := d.size
		if err := d.grow(vlen - d.size); err != nil {
			return err
		}
		if err := d.replaceRoot(value()); err != nil {
			d.size = size
			return err
		}
		return nil
	}
	parent, err := d.get(p[:len(p)-1])
	if err != nil {
		return err
	}
	last := p[len(p)-1]
	switch c := parent.(type) {
	case map[string]any:
		old, existed := c[last]
		n := stringLen(last) + 1 + vlen
		if existed {
			n = vlen - encodedLen(old)
		} else if len(c) > 0 {
			n++ // the comma
		}
		if err := d.grow(n); err != nil {
			return err
		}
		if existed {
			d.undo = append(d.undo, inverse{'p', p, old})
		} else {
			d.undo = append(d.undo, inverse{'r', p, nil})
		}
		c[last] = value()
	case []any:
		j, err := index(last, len(c), true)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		n := vlen
		if len(c) > 0 {
			n++
		}
		if err := d.grow(n); err != nil {
			return err
		}
		c = append(c, nil)
		copy(c[j+1:], c[j:])
		c[j] = value()
		at := append(pointer{}, p...)
		at[len(at)-1] = strconv.Itoa(j)
		d.undo = append(d.undo, inverse{'r', at, nil})
		d.set(p[:len(p)-1], c)
	default:
		return fmt.Errorf("%s is a %s, not an object or array", p[:len(p)-1], typeOf(parent))
	}
	return nil
}

// remove is RFC 6902 remove; it returns the removed value.
func (d *doc) remove(p pointer) (any, error) {
	if len(p) == 0 {
		return nil, errors.New("the whole spec cannot be removed")
	}
	parent, err := d.get(p[:len(p)-1])
	if err != nil {
		return nil, err
	}
	last := p[len(p)-1]
	switch c := parent.(type) {
	case map[string]any:
		old, ok := c[last]
		if !ok {
			return nil, fmt.Errorf("%s does not exist", p)
		}
		delete(c, last)
		n := memberLen(last, old)
		if len(c) > 0 {
			n++
		}
		d.size -= n
		d.undo = append(d.undo, inverse{'a', p, old})
		return old, nil
	case []any:
		j, err := index(last, len(c), false)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		old := c[j]
		c = append(c[:j], c[j+1:]...)
		n := encodedLen(old)
		if len(c) > 0 {
			n++
		}
		d.size -= n
		at := append(pointer{}, p...)
		at[len(at)-1] = strconv.Itoa(j)
		d.undo = append(d.undo, inverse{'a', at, old})
		d.set(p[:len(p)-1], c)
		return old, nil
	}
	return nil, fmt.Errorf("%s is a %s, not an object or array", p[:len(p)-1], typeOf(parent))
}

// replace is RFC 6902 replace: the target must exist.
func (d *doc) replace(p pointer, v any) error {
	if len(p) == 0 {
		return d.insert(p, encodedLen(v), func() any { return v })
	}
	parent, err := d.get(p[:len(p)-1])
	if err != nil {
		return err
	}
	last := p[len(p)-1]
	switch c := parent.(type) {
	case map[string]any:
		old, ok := c[last]
		if !ok {
			return fmt.Errorf("%s does not exist", p)
		}
		if err := d.grow(encodedLen(v) - encodedLen(old)); err != nil {
			return err
		}
		d.undo = append(d.undo, inverse{'p', p, old})
		c[last] = v
	case []any:
		j, err := index(last, len(c), false)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		if err := d.grow(encodedLen(v) - encodedLen(c[j])); err != nil {
			return err
		}
		at := append(pointer{}, p...)
		at[len(at)-1] = strconv.Itoa(j)
		d.undo = append(d.undo, inverse{'p', at, c[j]})
		c[j] = v
	default:
		return fmt.Errorf("%s is a %s, not an object or array", p[:len(p)-1], typeOf(parent))
	}
	return nil
}

// move is RFC 6902 move: remove from, then add at to.
func (d *doc) move(from, to pointer) error {
	if to.hasPrefix(from) {
		if len(to) == len(from) {
			_, err := d.get(from) // a move onto itself changes nothing
			return err
		}
		return fmt.Errorf("%s cannot move into its own child %s", from, to)
	}
	v, err := d.remove(from)
	if err != nil {
		return err
	}
	return d.add(to, v)
}

// copyTo is RFC 6902 copy. The copy is made only once the size is known
// to fit.
func (d *doc) copyTo(from, to pointer) error {
	v, err := d.get(from)
	if err != nil {
		return err
	}
	return d.insert(to, encodedLen(v), func() any { return deepCopy(v) })
}

// test is RFC 6902 test: the value at p must equal v.
func (d *doc) test(p pointer, v any) error {
	cur, err := d.get(p)
	if err != nil {
		return err
	}
	if !jsonEqual(cur, v) {
		return fmt.Errorf("%s is not the tested value", p)
	}
	return nil
}

// rollback undoes the changes logged after mark, newest first, and
// restores the size the document had then.
func (d *doc) rollback(mark, size int) {
	// Every state being returned to was within the limit; the limit is off
	// so no step of the way back can be refused.
	maxBytes := d.maxBytes
	d.maxBytes = 0
	defer func() { d.maxBytes = maxBytes }()
	for i := len(d.undo) - 1; i >= mark; i-- {
		u := d.undo[i]
		switch u.op {
		case 'a':
			d.add(u.path, u.value)
		case 'r':
			d.remove(u.path)
		case 'p':
			d.replace(u.path, u.value)
		}
	}
	d.undo = d.undo[:mark]
	d.size = size
}

// elementCount is the number of members of the document's elements.
func (d *doc) elementCount() int {
	m, _ := d.root["elements"].(map[string]any)
	return len(m)
}
