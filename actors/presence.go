package actors

import (
	"slices"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// presenceCore is who is at a canvas, kept by the Events actor because it
// is the one that knows both halves: the subscriptions it fans out to (the
// browser tabs and watchers), and every commit in order with its writer's
// agent. It publishes an immutable messages.Presence in the canvas handle
// after each change, so presence.get is a read of a published value like
// every other read, and it rebuilds only the half that changed: a commit
// does not copy a list of thousands of subscribers.
type presenceCore struct {
	clients map[uint64]messages.PresenceClient
	// agents are the recent writers, most recent first, at most
	// messages.PresenceAgentsMax.
	agents []messages.PresenceAgent
	// clientsDirty, agentsDirty say which half publish must rebuild.
	clientsDirty, agentsDirty bool
	clientList                []messages.PresenceClient
	agentList                 []messages.PresenceAgent
}

func (p *presenceCore) joined(id uint64, client, at string) {
	if p.clients == nil {
		p.clients = map[uint64]messages.PresenceClient{}
	}
	p.clients[id] = messages.PresenceClient{ID: id, Client: client, ConnectedAt: at}
	p.clientsDirty = true
}

func (p *presenceCore) left(id uint64) {
	if _, ok := p.clients[id]; ok {
		delete(p.clients, id)
		p.clientsDirty = true
	}
}

// wrote records a commit by agent: the node it touched (the first one the
// change names), the revision and the time. The agent moves to the front;
// the oldest falls off past the cap.
func (p *presenceCore) wrote(agent string, ch *canvas.Change, revision uint64, at string) {
	// One new list per commit (published as is: never changed in place),
	// the writer first.
	a := messages.PresenceAgent{Agent: agent}
	next := make([]messages.PresenceAgent, 1, min(len(p.agents)+1, messages.PresenceAgentsMax))
	for _, x := range p.agents {
		switch {
		case x.Agent == agent:
			a = x
		case len(next) < cap(next):
			next = append(next, x)
		}
	}
	a.LastNodeID, a.LastRemoved = "", false
	if len(ch.Nodes) > 0 {
		n := ch.Nodes[0]
		a.LastNodeID, a.LastRemoved = n.ID, n.After == nil
	}
	a.LastAt, a.Revision = at, revision
	a.Changes++
	next[0] = a
	p.agents = next
	p.agentsDirty = true
}

// publish stores the presence view in the handle when something changed.
func (p *presenceCore) publish(ref *canvasRef) {
	if !p.clientsDirty && !p.agentsDirty && ref.presence.Load() != nil {
		return
	}
	if p.clientsDirty || p.clientList == nil {
		ids := make([]uint64, 0, len(p.clients))
		for id := range p.clients {
			ids = append(ids, id)
		}
		slices.Sort(ids) // oldest first: ids only grow
		list := make([]messages.PresenceClient, 0, min(len(ids), messages.PresenceClientsMax))
		for _, id := range ids[:min(len(ids), messages.PresenceClientsMax)] {
			list = append(list, p.clients[id])
		}
		p.clientList = list
	}
	if p.agentsDirty || p.agentList == nil {
		p.agentList = p.agents
		if p.agentList == nil {
			p.agentList = []messages.PresenceAgent{}
		}
	}
	p.clientsDirty, p.agentsDirty = false, false
	ref.presence.Store(&messages.Presence{OK: true, Canvas: ref.id, ClientCount: len(p.clients),
		Clients: p.clientList, Agents: p.agentList})
}

func init() {
	readHandlers["presence.get"] = func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		if p := ref.presence.Load(); p != nil {
			return p, nil
		}
		return &messages.Presence{OK: true, Canvas: ref.id, Clients: []messages.PresenceClient{}, Agents: []messages.PresenceAgent{}}, nil
	}
}
