package canvas

import (
	"encoding/json"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Any decodable node.add / node.update / edge.add input either applies or
// fails with a 4xx and leaves the state exactly as it was.
func FuzzNodeAndEdgeInputs(f *testing.F) {
	f.Add(`{"type":"markdown","title":"a"}`, `{"x":5}`, `{"type":"flow","fromSearch":"a","toSearch":"b"}`)
	f.Add(`{"type":"group","childIds":["x"]}`, `{"width":-1}`, `{"type":"x"}`)
	f.Add(`{"type":"html","html":{}}`, `{"dockPosition":"top"}`, `{}`)
	f.Add(`{"type":"context","x":1e300,"y":-1e300,"width":1e308,"height":1e308}`, `{"type":"html"}`, `{"from":"","to":""}`)
	f.Fuzz(func(t *testing.T, addJSON, updateJSON, edgeJSON string) {
		env := testEnv()
		tx := Begin(NewState(), env)
		SeedDockedWidgets(tx)
		mustAdd(t, tx, `{"type":"markdown","title":"a"}`)
		mustAdd(t, tx, `{"type":"markdown","title":"b"}`)
		base, _, _ := tx.Commit()
		target := base.Nodes.All()[2].ID

		check := func(name string, run func(tx *Tx) *messages.Error) {
			tx := Begin(base, env)
			err := run(tx)
			st, ch, _ := tx.Commit()
			if err != nil {
				if err.Status < 400 || err.Status >= 500 {
					t.Fatalf("%s: status %d", name, err.Status)
				}
				if !ch.Empty() || st.Nodes.Len() != base.Nodes.Len() || st.Edges.Len() != base.Edges.Len() {
					t.Fatalf("%s failed but changed the state", name)
				}
			}
		}
		var add messages.NodeAddInput
		if json.Unmarshal([]byte(addJSON), &add) == nil {
			check("add", func(tx *Tx) *messages.Error { _, err := AddNode(tx, &add, AddOptions{}); return err })
		}
		var up messages.NodeUpdateInput
		if json.Unmarshal([]byte(updateJSON), &up) == nil {
			up.ID = target
			check("update", func(tx *Tx) *messages.Error { _, err := UpdateNode(tx, &up); return err })
		}
		var edge messages.EdgeAddInput
		if json.Unmarshal([]byte(edgeJSON), &edge) == nil {
			check("edge", func(tx *Tx) *messages.Error { _, err := AddEdge(tx, &edge); return err })
		}
	})
}
