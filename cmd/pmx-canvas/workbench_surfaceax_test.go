package main

// The parent side of an html surface's AX bridge (web-client.md §18): a
// click in a sandboxed html node emits through window.PMX_AX, the page
// sends it as that node with its surface token, the ack carries the
// server's reply, and AX changes are pushed back into the frame.

import (
	"fmt"
	"testing"
	"time"
)

func TestWorkbenchSurfaceAXBridge(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page := `<button id=work>Create work</button><button id=steer>Steer</button><p id=out>-</p><p id=count>-</p>
<script>
const out = document.getElementById("out");
document.getElementById("work").onclick = () => PMX_AX.emit("ax.work.create", {title: "From the surface"}).then((r) => { out.textContent = r.ok ? "ok " + r.type + " " + r.primitive.title : "refused " + r.code; });
document.getElementById("steer").onclick = () => PMX_AX.emit("ax.steer", {message: "not mine to send"}).then((r) => { out.textContent = r.ok ? "ok" : "refused " + r.code; });
PMX_AX.on("state", (s) => { document.getElementById("count").textContent = String((s.workItems || []).length); });
</script>`
	body := fmt.Sprintf(`{"type":"html","title":"AX surface","html":%q,"axCapabilities":{"enabled":true,"allowed":["ax.work.create"]},"x":80,"y":80,"width":420,"height":300}`, page)
	id := p.addNode(body)
	pg, problems := openBoard(t, p)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q] iframe.html-node-frame`, id)
	until(t, "the surface frame", func() bool {
		return js(t, pg, fmt.Sprintf(`return String(!!document.querySelector(%q))`, sel)) == "true"
	})
	frame := pg.MustElement(sel).MustFrame()
	until(t, "the bridge in the frame", func() bool {
		v, err := frame.Eval(`() => typeof window.PMX_AX === "object" && !!document.getElementById("work")`)
		return err == nil && v.Value.Bool()
	})
	text := func(id string) string {
		return frame.MustEval(`(id) => document.getElementById(id).textContent`, id).Str()
	}

	frame.MustElement("#work").MustClick()
	if !within(10*time.Second, func() bool { return text("out") == "ok ax.work.create From the surface" }) {
		t.Fatalf("ack: %q; browser: %v", text("out"), problems())
	}
	var item map[string]any
	for _, w := range list(p.must(200, "GET", "/api/canvas/ax/work", nil).body, "workItems") {
		if w["title"] == "From the surface" {
			item = w
		}
	}
	if item == nil {
		t.Fatal("the work item is not on the server")
	}
	// A scoped surface acts as its own node: the item is anchored there.
	if ids := strs(item["nodeIds"]); len(ids) != 1 || ids[0] != id {
		t.Fatalf("work item nodeIds %v, want [%s]", ids, id)
	}
	// The change comes back into the frame as an ax-update.
	until(t, "the pushed AX state", func() bool { return text("count") == "1" })

	// A type the node does not allow is refused, and the refusal reaches
	// the surface as its ack.
	frame.MustElement("#steer").MustClick()
	until(t, "the refusal's ack", func() bool { return text("out") == "refused not-allowed" })
	if rows := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=anyone", nil).body, "pending"); len(rows) != 0 {
		t.Fatalf("a refused steer was delivered: %v", rows)
	}
	_ = problems // the refusal is logged by the browser as a failed request
}
