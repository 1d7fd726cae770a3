package jsonrender

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Stream statuses, as the reference's streamStatus.
const (
	StatusOpen   = "open"
	StatusClosed = "closed"
)

// Limits bound a Stream. A zero field takes its DefaultLimits value.
type Limits struct {
	// MaxPatches is the most patches one Apply call may carry, counting
	// each line of a JSONL string.
	MaxPatches int
	// MaxBytes is the most bytes the spec may take encoded as JSON.
	MaxBytes int
	// MaxElements is the most members the spec's elements may have. It is
	// lowered to the package's MaxElements, the most Close can validate.
	MaxElements int
}

// DefaultLimits are the limits of a Stream whose Limits are zero.
var DefaultLimits = Limits{MaxPatches: 1000, MaxBytes: 1 << 20, MaxElements: MaxElements}

func (l Limits) withDefaults() Limits {
	if l.MaxPatches <= 0 {
		l.MaxPatches = DefaultLimits.MaxPatches
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxElements <= 0 || l.MaxElements > MaxElements {
		l.MaxElements = MaxElements
	}
	return l
}

// ErrLimit matches (with errors.Is) the error of an Apply call refused
// because it would pass one of the stream's Limits; the error itself says
// which limit, and the patch that would have passed it.
var ErrLimit = errors.New("jsonrender: stream limit")

// ErrForbiddenKey matches the error of an Apply call refused because a
// patch names a "__proto__", "constructor" or "prototype" key.
var ErrForbiddenKey = errors.New("jsonrender: forbidden key")

// callError is an Apply call refused as a whole.
type callError struct {
	msg  string
	kind error // ErrLimit or ErrForbiddenKey
}

func (e *callError) Error() string        { return e.msg }
func (e *callError) Is(target error) bool { return target == e.kind }

func refuse(kind error, format string, args ...any) error {
	return &callError{msg: "jsonrender: " + fmt.Sprintf(format, args...) + "; no patch of the call was applied", kind: kind}
}

// Stream is a json-render spec built up by JSON Patch calls, as an agent
// streams a UI: each Apply call changes the spec, and Close validates it.
// The zero Stream is open, with the spec {"root": "", "elements": {}} and
// spec version 0. A Stream is safe for use by several goroutines.
type Stream struct {
	// Limits bound the stream's calls; set them before the first call.
	Limits Limits

	mu      sync.Mutex
	d       *doc
	version int
	closed  bool
}

// ResumeStream returns an open Stream that goes on from spec, a document
// stored after earlier calls (see Normalize for the values accepted), at
// spec version specVersion. The stream does not share spec's values.
func ResumeStream(spec any, specVersion int, limits Limits) (*Stream, error) {
	v, err := canon(spec)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("jsonrender: a stream's spec must be an object, not a %s", typeOf(v))
	}
	var bad []string
	findForbidden(m, nil, func(path []string) bool {
		bad = path
		return false
	})
	if bad != nil {
		return nil, &callError{msg: fmt.Sprintf("jsonrender: the spec has the forbidden key %q at %s", bad[len(bad)-1], pointer(bad)), kind: ErrForbiddenKey}
	}
	s := &Stream{Limits: limits, version: specVersion}
	l := limits.withDefaults()
	s.d = &doc{root: m, size: encodedLen(m), maxBytes: l.MaxBytes}
	if s.d.size > l.MaxBytes {
		return nil, &callError{msg: fmt.Sprintf("jsonrender: the spec is %d bytes, over the limit of %d (MaxBytes)", s.d.size, l.MaxBytes), kind: ErrLimit}
	}
	if n := s.d.elementCount(); n > l.MaxElements {
		return nil, &callError{msg: fmt.Sprintf("jsonrender: the spec has %d elements, over the limit of %d (MaxElements)", n, l.MaxElements), kind: ErrLimit}
	}
	return s, nil
}

// init makes the zero Stream's spec. It must be called with mu held.
func (s *Stream) init() {
	if s.d == nil {
		root := map[string]any{"root": "", "elements": map[string]any{}}
		s.d = &doc{root: root, size: encodedLen(root)}
	}
}

// patch is one patch of a call, parsed. A malformed one has bad set and is
// skipped.
type patch struct {
	op       string
	path     pointer
	from     pointer
	value    any
	hasValue bool
	bad      bool
	rawPath  string // the path as given, for errors
}

// desc describes the patch for errors: "add /elements/x".
func (p patch) desc() string { return p.op + " " + p.rawPath }

// Apply applies one call's patches: JSON Patch objects (RFC 6902 add,
// remove, replace, move, copy and test, with JSON Pointer paths into the
// spec) and strings of JSONL, one patch object a line, blank lines
// skipped. A patch object is a decoded map[string]any, JSON text
// (json.RawMessage or []byte) or a Go value encoding/json encodes as one. Patches apply in order, each on its own: one that is malformed
// or cannot apply (its target missing, a failed test) changes nothing and
// is counted as skipped, as in the reference, and later ones still apply.
//
// A call is refused as a whole, changing nothing, when it carries more
// than MaxPatches patches, when a patch's path, from or value names a
// "__proto__", "constructor" or "prototype" key, or when a patch would
// take the spec past MaxBytes or MaxElements; the error names the patch,
// counting from 0 across the JSONL lines, and matches ErrLimit or
// ErrForbiddenKey.
//
// Every call that is not refused adds one to the spec version, even one
// whose patches were all skipped, as in the reference, and reopens a
// closed stream.
func (s *Stream) Apply(patches []any) (applied, skipped int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	l := s.Limits.withDefaults()
	ps, err := parsePatches(patches, l.MaxPatches)
	if err != nil {
		return 0, 0, err
	}
	d := s.d
	d.maxBytes = l.MaxBytes
	startMark, startSize := len(d.undo), d.size
	for i, p := range ps {
		if p.bad {
			skipped++
			continue
		}
		mark, size := len(d.undo), d.size
		err := d.apply(p)
		var lim *errLimit
		if errors.As(err, &lim) {
			d.rollback(startMark, startSize)
			return 0, 0, refuse(ErrLimit, "patch %d (%s) would make the spec %d bytes, over the limit of %d (MaxBytes)", i, p.desc(), lim.size, l.MaxBytes)
		}
		if err != nil {
			d.rollback(mark, size)
			skipped++
			continue
		}
		if n := d.elementCount(); n > l.MaxElements {
			d.rollback(startMark, startSize)
			return 0, 0, refuse(ErrLimit, "patch %d (%s) would give the spec %d elements, over the limit of %d (MaxElements)", i, p.desc(), n, l.MaxElements)
		}
		applied++
	}
	clear(d.undo)
	d.undo = d.undo[:0]
	s.version++
	s.closed = false
	return applied, skipped, nil
}

// apply applies one parsed patch.
func (d *doc) apply(p patch) error {
	switch p.op {
	case "add":
		return d.add(p.path, p.value)
	case "remove":
		_, err := d.remove(p.path)
		return err
	case "replace":
		return d.replace(p.path, p.value)
	case "move":
		return d.move(p.from, p.path)
	case "copy":
		return d.copyTo(p.from, p.path)
	case "test":
		return d.test(p.path, p.value)
	}
	return fmt.Errorf("unknown op %q", p.op)
}

// parsePatches expands JSONL strings into patch objects and parses each,
// refusing the call for too many patches or a forbidden key.
func parsePatches(in []any, maxPatches int) ([]patch, error) {
	out := make([]patch, 0, len(in))
	push := func(obj any, fresh bool) error {
		if len(out) == maxPatches {
			return refuse(ErrLimit, "the call carries more than %d patches (MaxPatches)", maxPatches)
		}
		p, err := parsePatch(obj, fresh)
		if err != nil {
			return refuse(ErrForbiddenKey, "patch %d: %v", len(out), err)
		}
		out = append(out, p)
		return nil
	}
	for _, e := range in {
		text, ok := e.(string)
		if !ok {
			fresh := false
			if _, isMap := e.(map[string]any); !isMap && e != nil {
				// JSON text or a Go struct: decode it into a fresh object.
				e, _ = canon(e)
				fresh = true
			}
			if err := push(e, fresh); err != nil {
				return nil, err
			}
			continue
		}
		for line := range strings.SplitSeq(text, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			var obj any
			if json.Unmarshal([]byte(line), &obj) != nil {
				obj = nil // malformed: skipped
			}
			if err := push(obj, true); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// parsePatch parses one patch object. fresh says its values were just
// decoded, so they need no copy. The error is for a forbidden key only;
// any other fault gives a bad patch.
func parsePatch(v any, fresh bool) (patch, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return patch{bad: true}, nil
	}
	var p patch
	p.op, _ = m["op"].(string)
	for _, f := range []struct {
		name string
		dst  *pointer
	}{{"path", &p.path}, {"from", &p.from}} {
		s, ok := m[f.name].(string)
		if !ok {
			continue
		}
		ptr, err := parsePointer(s)
		if err != nil {
			p.bad = true
			continue
		}
		for _, tok := range ptr {
			if forbidden[tok] {
				return p, fmt.Errorf("%s %q has the forbidden segment %q", f.name, s, tok)
			}
		}
		*f.dst = ptr
	}
	if raw, ok := m["value"]; ok {
		val := raw
		if !fresh {
			c, err := canonValue(raw)
			if err != nil {
				p.bad = true
			}
			val = c
		}
		var bad []string
		findForbidden(val, nil, func(path []string) bool {
			bad = path
			return false
		})
		if bad != nil {
			return p, fmt.Errorf("value has the forbidden key %q at %s", bad[len(bad)-1], pointer(bad))
		}
		p.value, p.hasValue = val, true
	}
	path, hasPath := m["path"].(string)
	_, hasFrom := m["from"].(string)
	switch p.op {
	case "add", "replace", "test":
		p.bad = p.bad || !hasPath || !p.hasValue
	case "remove":
		p.bad = p.bad || !hasPath
	case "move", "copy":
		p.bad = p.bad || !hasPath || !hasFrom
	default:
		p.bad = true
	}
	p.rawPath = path
	return p, nil
}

// Close validates the spec with Normalize and, if it is valid, closes the
// stream and returns the normalised spec. An invalid spec leaves the
// stream open, so later calls can mend it. The reference never validated
// streamed specs; this package does.
func (s *Stream) Close() (*Spec, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	spec, err := Normalize(s.d.root)
	if err != nil {
		return nil, err
	}
	s.closed = true
	return spec, nil
}

// Status returns StatusOpen or StatusClosed.
func (s *Stream) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return StatusClosed
	}
	return StatusOpen
}

// SpecVersion returns the number of calls applied so far (plus the version
// a resumed stream started from).
func (s *Stream) SpecVersion() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Document returns a copy of the spec as built so far, not normalised:
// what a viewer renders while the stream is open.
func (s *Stream) Document() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	return deepCopy(s.d.root).(map[string]any)
}

// ElementCount returns the number of members of the spec's elements.
func (s *Stream) ElementCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	return s.d.elementCount()
}

// Size returns the spec's size in bytes, encoded as JSON.
func (s *Stream) Size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	return s.d.size
}
