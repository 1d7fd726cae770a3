package canvas

// SeedDockedWidgets adds the reference's two HUD widgets a fresh workspace
// starts with: status-main docked left and context-main docked right, both
// collapsed. Auto-placement treats them as obstacles, as the reference does.
func SeedDockedWidgets(tx *Tx) {
	if _, ok := tx.Node("status-main"); !ok {
		tx.PutNode(&Node{
			ID: "status-main", Type: "status", Position: Point{40, 80}, Size: Size{300, 120},
			ZIndex: 0, Collapsed: true, DockPosition: "left",
			Data: map[string]any{"phase": "idle", "message": "", "elapsed": 0.0},
		})
	}
	if _, ok := tx.Node("context-main"); !ok {
		tx.PutNode(&Node{
			ID: "context-main", Type: "context", Position: Point{1130, 80}, Size: Size{320, 400},
			ZIndex: 1, Collapsed: true, DockPosition: "right",
			Data: map[string]any{"cards": []any{}, "auxTabs": []any{}},
		})
	}
	tx.MarkPopulated()
}
