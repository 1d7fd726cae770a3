package actors

import (
	"context"

	"github.com/pmxcanvas/pmx-canvas/content/diagram"
	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
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
		serverName: open.ServerName, nodeID: deref(in.NodeID), title: deref(in.Title), x: in.X, y: in.Y, w: in.Width, h: in.Height,
		timeout: appTimeout(in.TimeoutMs),
		result: func(nodeID string, result map[string]any) {
			if result == nil {
				return
			}
			sc, _ := result["structuredContent"].(map[string]any)
			if sc == nil {
				sc = map[string]any{}
			}
			sc["checkpointId"] = diagram.CheckpointID(nodeID)
			result["structuredContent"] = sc
		}}
	return s.openApp(ctx, ref, env, o)
}
