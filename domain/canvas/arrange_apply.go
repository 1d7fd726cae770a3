package canvas

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// ArrangeResult is arrange's reply: ok is the validation result after the
// arrange (a soft failure with HTTP 200, as the reference), with the
// validation report attached when it is not ok.
type ArrangeResult struct {
	OK         bool              `json:"ok"`
	Arranged   int               `json:"arranged"`
	Layout     string            `json:"layout"`
	Validation *ValidationResult `json:"validation,omitempty"`
	Collisions []Collision       `json:"collisions,omitempty"`
}

// Arrange applies PlanArrange's moves (members move with their group as the
// plan lists them, so no group translation here), then refits every fit
// frame around its members. One undoable step.
func Arrange(tx *Tx, layout string) (ArrangeResult, *messages.Error) {
	plan, err := PlanArrange(tx.State(), layout)
	if err != nil {
		return ArrangeResult{}, err
	}
	for _, m := range plan.Moves {
		n, ok := tx.Node(m.ID)
		if !ok {
			continue
		}
		c := n.Clone()
		c.Position = m.Position
		if m.Size != nil {
			c.Size = *m.Size
		}
		tx.PutNode(c)
	}
	refitAllGroups(tx)
	tx.Describe("arrange", fmt.Sprintf("Auto-arranged %d nodes (%s)", plan.Arranged, plan.Layout))
	tx.EmitLayout()
	v := Validate(tx.State())
	res := ArrangeResult{OK: v.OK, Arranged: plan.Arranged, Layout: plan.Layout}
	if !v.OK {
		res.Validation, res.Collisions = &v, v.Collisions
	}
	return res, nil
}

// refitAllGroups refits every fit-mode group, top-left first.
func refitAllGroups(tx *Tx) {
	var groups []*Node
	tx.State().Nodes.Each(func(n *Node) bool {
		if n.Type == "group" && n.IsFitFrame() {
			groups = append(groups, n)
		}
		return true
	})
	slices.SortStableFunc(groups, func(a, b *Node) int {
		if c := cmp.Compare(a.Position.Y, b.Position.Y); c != 0 {
			return c
		}
		return cmp.Compare(a.Position.X, b.Position.X)
	})
	for _, g := range groups {
		refitGroup(tx, g.ID)
	}
}
