package messages

import (
	"strings"
	"unicode"
)

// initialisms keep Go's spelling in method names (snapshot.gc → SnapshotGC).
var initialisms = map[string]string{"gc": "GC", "id": "ID", "url": "URL", "html": "HTML", "json": "JSON"}

func output[T any]() func() any { return func() any { return new(T) } }

// NewOutput returns a pointer to a zero value of the operation's reply
// body type (Output), or nil when the reply is not typed.
func (op *Op) NewOutput() any {
	if op.Output != nil {
		return op.Output()
	}
	return nil
}

// RepliesBytes reports whether the operation's reply is bytes (a *Blob:
// a screenshot, a workspace file), not JSON.
func (op *Op) RepliesBytes() bool {
	_, ok := op.NewOutput().(*Blob)
	return ok
}

// GoName is the operation's method name in the Go package: GoMethod, or
// the name in CamelCase (node.add → NodeAdd, ax.host-capability.get →
// AxHostCapabilityGet).
func (op *Op) GoName() string {
	if op.GoMethod != "" {
		return op.GoMethod
	}
	var b strings.Builder
	for _, part := range strings.FieldsFunc(op.Name, func(r rune) bool { return r == '.' || r == '-' }) {
		if up, ok := initialisms[part]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}
