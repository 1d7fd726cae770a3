package actors

import (
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Admission control keeps one runaway client from starving the rest:
//
//   - Each canvas admits at most Config.MaxInFlight writes at once (queued in
//     or being applied by its actors); one more is refused at once with 503
//     overloaded and a Retry-After, instead of growing the mailboxes and
//     every caller's latency without bound. Reads from published views and
//     parked waits are not counted: they queue behind nobody.
//   - With Config.AgentRate set, each agent (the envelope's Agent: header
//     X-PMX-Agent or field agentId) may send that many writes per second,
//     in bursts of Config.AgentBurst, across all canvases; faster writes are
//     refused with 429 rate-limited and the wait until a token is free.
//     Writes that name no agent are not rate-limited.

// DefaultMaxInFlight is the per-canvas in-flight cap when Config.MaxInFlight
// is 0.
const DefaultMaxInFlight = 4096

// overloadRetry is the Retry-After of an overloaded canvas: about what a
// full mailbox takes to drain at group-commit speed.
const overloadRetry = 100 * time.Millisecond

func (c Config) maxInFlight() int64 {
	switch {
	case c.MaxInFlight < 0:
		return 0 // no cap
	case c.MaxInFlight == 0:
		return DefaultMaxInFlight
	}
	return int64(c.MaxInFlight)
}

// admit takes an in-flight slot of ref for one write, and a token of its
// agent's bucket; release gives the slot back when the write is answered.
func (s *System) admit(ref *canvasRef, env *messages.Envelope) (release func(), err *messages.Error) {
	if env.Agent != "" && s.cfg.AgentRate > 0 {
		if wait := s.buckets.take(env.Agent, s.cfg.AgentRate, s.cfg.agentBurst(), time.Now()); wait > 0 {
			return nil, messages.RateLimited(wait, "agent %q is writing faster than %g writes per second; retry in %d ms", env.Agent, s.cfg.AgentRate, wait.Milliseconds())
		}
	}
	limit := s.cfg.maxInFlight()
	if limit == 0 {
		return func() {}, nil
	}
	if n := ref.inFlight.Add(1); n > limit {
		ref.inFlight.Add(-1)
		return nil, messages.Overloaded(overloadRetry, "canvas %q has %d writes in flight, its limit; retry shortly", ref.id, limit)
	}
	return func() { ref.inFlight.Add(-1) }, nil
}

func (c Config) agentBurst() float64 {
	if c.AgentBurst > 0 {
		return float64(c.AgentBurst)
	}
	return max(1, c.AgentRate)
}

// agentBuckets are the token buckets of the agents that have written.
type agentBuckets struct {
	mu sync.Mutex
	m  map[string]*tokenBucket
}

type tokenBucket struct {
	tokens float64
	at     time.Time
}

// take takes one token of agent's bucket at now, or returns how long until
// one is free (nothing taken).
func (b *agentBuckets) take(agent string, rate, burst float64, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]*tokenBucket{}
	}
	tb, ok := b.m[agent]
	if !ok {
		if len(b.m) >= maxAgentBuckets {
			b.evictFull(now, rate, burst)
		}
		tb = &tokenBucket{tokens: burst, at: now}
		b.m[agent] = tb
	}
	tb.tokens = min(burst, tb.tokens+now.Sub(tb.at).Seconds()*rate)
	tb.at = now
	if tb.tokens >= 1 {
		tb.tokens--
		return 0
	}
	return time.Duration((1 - tb.tokens) / rate * float64(time.Second))
}

// maxAgentBuckets bounds the map: agent names come from clients.
const maxAgentBuckets = 10000

// evictFull forgets the buckets that have refilled (they would start full
// anyway), keeping the map bounded.
func (b *agentBuckets) evictFull(now time.Time, rate, burst float64) {
	for k, tb := range b.m {
		if tb.tokens+now.Sub(tb.at).Seconds()*rate >= burst {
			delete(b.m, k)
		}
	}
}

// expired answers a request whose deadline passed while it waited in its
// owner's mailbox, without applying it: its caller has been told it timed
// out, and applying it now would be a write nobody waits for (a retry
// would then apply it twice). It reports whether it answered.
func expired(ctx actor.Context, req *invokeRequest) bool {
	if req.env.Deadline.IsZero() || time.Now().Before(req.env.Deadline) {
		return false
	}
	ctx.Respond(&invokeResult{err: messages.Expired(req.env.Op)})
	return true
}
