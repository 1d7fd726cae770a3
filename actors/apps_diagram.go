package actors

import (
	"context"
	"encoding/json"

	"github.com/pmxcanvas/pmx-canvas/content/diagram"
	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// diagramOpen is the Excalidraw preset of mcpapp.open: the elements,
// normalised and framed by a camera, go to the Excalidraw app's
// create_view tool (its endpoint: serve --diagram-server-url), and the
// tool result carries the checkpoint id pmx-<node id>.
func diagramOpen(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.DiagramOpenInput)
	if in.Elements == nil {
		return nil, messages.BadRequest("Missing elements: pass an array of Excalidraw elements or that array as a JSON string.").With("field", "elements")
	}
	open, err := diagram.BuildOpen(in.Elements, s.cfg.Apps.DiagramURL)
	if err != nil {
		return nil, messages.BadRequest("%s", err.Error()).With("field", "elements")
	}
	o := appOpen{transport: mcpapp.Transport{Type: "http", URL: open.ServerURL}, toolName: open.ToolName, args: open.ToolArguments,
		serverName: open.ServerName, nodeID: str(in.NodeID), title: str(in.Title), x: in.X, y: in.Y, w: in.Width, h: in.Height,
		timeout: appTimeout(in.TimeoutMs),
		result: func(nodeID string, result map[string]any) {
			sc, _ := result["structuredContent"].(map[string]any)
			if sc == nil {
				sc = map[string]any{}
			}
			sc["checkpointId"] = diagram.CheckpointID(nodeID)
			result["structuredContent"] = sc
		}}
	return s.openApp(ctx, ref, env, o)
}

// diagramCheckpoint is what an Excalidraw app's save_checkpoint changes on
// its node: appCheckpoint {id, data}, and a tool input that restores the
// checkpoint in the same camera (so a re-opened node shows the edits).
// Other calls and other apps change neither (nil, nil).
func diagramCheckpoint(n *canvas.Node, toolName string, args map[string]any) (checkpoint, toolInput map[string]any) {
	if toolName != "save_checkpoint" || n.Data["serverName"] != diagram.ServerName {
		return nil, nil
	}
	id, _ := args["id"].(string)
	if id == "" {
		return nil, nil
	}
	var camera map[string]any
	input, _ := n.Data["toolInput"].(map[string]any)
	if text, _ := input["elements"].(string); text != "" {
		var els []map[string]any
		if json.Unmarshal([]byte(text), &els) == nil {
			for _, e := range els {
				if e["type"] == "cameraUpdate" {
					camera = e
					break
				}
			}
			if camera == nil {
				camera = diagram.Camera(els)
			}
		}
	}
	restore, err := json.Marshal(diagram.RestoreElements(id, camera))
	if err != nil {
		return nil, nil
	}
	next := map[string]any{}
	for k, v := range input {
		next[k] = v
	}
	next["elements"] = string(restore)
	return map[string]any{"id": id, "data": args["data"]}, next
}
