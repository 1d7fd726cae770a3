package canvas

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNodeReplyRendering: the reply splices the wire node twice, escapes
// like json.Marshal, keeps the reference's key order, and renders the same
// bytes whether written into a buffer or marshalled.
func TestNodeReplyRendering(t *testing.T) {
	n := &Node{ID: `n-<1>&"x"`, Type: "markdown", Position: Point{X: 1, Y: 2}, Size: Size{Width: 3, Height: 4},
		Data: map[string]any{"title": "A <b> & é", "content": "line\nnext"}}
	cases := []struct {
		name   string
		reply  *NodeReply
		suffix string
	}{
		{"plain", NodeResponse(n, false, nil), `"}`},
		{"extras and revision", func() *NodeReply {
			r := NodeResponse(n, true, map[string]any{"zeta": 1, "alpha": []string{"<a>"}})
			r.SetRevision(42)
			return r
		}(), `,"revision":42}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			buf.WriteString("prefix")
			if _, err := c.reply.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			got := strings.TrimPrefix(buf.String(), "prefix")
			marshalled, err := c.reply.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if got != string(marshalled) {
				t.Fatalf("WriteTo and MarshalJSON differ:\n%s\n%s", got, marshalled)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(got), &m); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, got)
			}
			node, _ := m["node"].(map[string]any)
			if m["ok"] != true || m["nodeId"] != n.ID || node["id"] != n.ID || m["title"] != "A <b> & é" || m["type"] != "markdown" {
				t.Fatalf("reply fields: %s", got)
			}
			if strings.Contains(got, "<") || strings.Contains(got, "&") {
				t.Fatalf("not HTML-escaped like json.Marshal: %s", got)
			}
			if !strings.HasPrefix(got, `{"ok":true,"node":{"id":`) {
				t.Fatalf("key order: %s", got)
			}
			if c.name != "plain" && !strings.HasSuffix(got, c.suffix) {
				t.Fatalf("want suffix %s: %s", c.suffix, got)
			}
			if c.name != "plain" && strings.Index(got, `"alpha"`) > strings.Index(got, `"zeta"`) {
				t.Fatalf("extras unsorted: %s", got)
			}
		})
	}
}
