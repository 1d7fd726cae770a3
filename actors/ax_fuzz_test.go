package actors

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// Whatever input an AX operation gets, the answer is a reply or a 4xx: no
// handler panics (a panic would be a 500) and nothing is half-applied.
func FuzzAXOperations(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"title":"t","nodeIds":["status-main",1,null]}`, `{"id":"x","decision":"approved"}`,
		`{"type":"ax.work.create","sourceNodeId":"status-main","payload":{"title":"x"}}`,
		`{"kind":"error","title":"t","reactions":{"workItem":{"status":"nope"},"review":{"anchorType":"node"}}}`,
		`{"tools":{"approvalRequired":["pmx.plan"]},"prompt":{"mode":5}}`, `{"name":"pmx.plan","args":[1]}`,
		`{"focus":{"nodeIds":"x"}}`, `{"capabilities":{"files":"yes"},"raw":[1]}`, `{"response":[1],"fields":[{}]}`,
		`{"consumer":"a","leaseMs":1,"limit":"7"}`, `{"body":"b","region":{"line":"x"},"anchorType":"region"}`,
	} {
		f.Add(seed)
	}
	store, err := persistence.Open(f.TempDir(), persistence.Options{Logger: quiet(), NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	sys, err := Start(Config{Store: store, Logger: quiet(), SeedDockedWidgets: true})
	if err != nil {
		f.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	f.Fuzz(func(t *testing.T, raw string) {
		for _, op := range messages.Catalog {
			if !strings.HasPrefix(op.Name, "ax.") {
				continue
			}
			if args, derr := op.DecodeInput(json.RawMessage(raw)); derr == nil {
				if p, ok := args.(messages.Parker); ok {
					if wait, _ := p.Park(); wait > 0 {
						continue // a real wait; covered by the wait tests
					}
				}
			}
			_, err := sys.Invoke(context.Background(), &messages.Envelope{Op: op.Name, Source: "api", Input: json.RawMessage(raw)})
			if e := messages.AsError(err); e != nil && e.Status >= 500 {
				t.Fatalf("%s %s: %d %s", op.Name, raw, e.Status, e.Message)
			}
		}
	})
}
