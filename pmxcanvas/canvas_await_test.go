package pmxcanvas

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// waitStats polls the AX counters until ok holds (the waiters are parked in
// the Gates and Timeline actors, so this is how a test sees them).
func waitStats(t *testing.T, c *Canvas, what string, ok func(*AxStats) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := c.AxStats(bg)
		if err != nil {
			t.Fatal(err)
		}
		if ok(st) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: stats stay %+v", what, st)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func gateWaiters(n int) func(*AxStats) bool {
	return func(s *AxStats) bool { return s.GateWaiters == n }
}

type awaitResult struct {
	status string
	err    error
	took   time.Duration
}

// gateKind drives one kind of gate through the same await tests.
type gateKind struct {
	name    string
	open    func(c *Canvas) string
	await   func(ctx context.Context, c *Canvas, id string) (string, error)
	resolve func(c *Canvas, id string) error
	decided string
}

var gateKinds = []gateKind{
	{
		name: "approval",
		open: func(c *Canvas) string {
			g, _ := c.RequestApproval(bg, ApprovalInput{Title: "ok?"})
			return g.ID
		},
		await: func(ctx context.Context, c *Canvas, id string) (string, error) {
			g, err := c.AwaitApproval(ctx, id)
			if err != nil {
				return "", err
			}
			return g.Status, nil
		},
		resolve: func(c *Canvas, id string) error { _, err := c.ResolveApproval(bg, id, Approve, "yes"); return err },
		decided: StatusApproved,
	},
	{
		name: "elicitation",
		open: func(c *Canvas) string {
			e, _ := c.RequestElicitation(bg, ElicitationInput{Prompt: "name?"})
			return e.ID
		},
		await: func(ctx context.Context, c *Canvas, id string) (string, error) {
			e, err := c.AwaitElicitation(ctx, id)
			if err != nil {
				return "", err
			}
			return e.Status, nil
		},
		resolve: func(c *Canvas, id string) error {
			_, err := c.RespondElicitation(bg, id, map[string]any{"name": "x"})
			return err
		},
		decided: StatusAnswered,
	},
	{
		name: "mode",
		open: func(c *Canvas) string {
			m, _ := c.RequestMode(bg, ModeInput{Mode: "plan"})
			return m.ID
		},
		await: func(ctx context.Context, c *Canvas, id string) (string, error) {
			m, err := c.AwaitMode(ctx, id)
			if err != nil {
				return "", err
			}
			return m.Status, nil
		},
		resolve: func(c *Canvas, id string) error { _, err := c.ResolveMode(bg, id, Reject, ""); return err },
		decided: StatusRejected,
	},
}

func startAwait(ctx context.Context, c *Canvas, k gateKind, id string) <-chan awaitResult {
	done := make(chan awaitResult, 1)
	go func() {
		start := time.Now()
		st, err := k.await(ctx, c, id)
		done <- awaitResult{st, err, time.Since(start)}
	}()
	return done
}

// An await parks until another goroutine decides the gate, then returns
// the decided gate; the waiter is gone afterwards.
func TestAwaitReturnsWhenResolved(t *testing.T) {
	for _, k := range gateKinds {
		t.Run(k.name, func(t *testing.T) {
			c := openT(t)
			id := k.open(c)
			done := startAwait(bg, c, k, id) // no deadline: parks in rounds until decided
			waitStats(t, c, "waiter parked", gateWaiters(1))
			select {
			case r := <-done:
				t.Fatalf("await returned before the decision: %+v", r)
			default:
			}
			noErr(t, k.resolve(c, id))
			select {
			case r := <-done:
				if r.err != nil || r.status != k.decided {
					t.Fatalf("await: %+v", r)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("await did not return after the decision")
			}
			waitStats(t, c, "waiter gone", gateWaiters(0))
		})
	}
}

// Cancelling the context ends the wait at once with an error that wraps
// ctx.Err() and the *messages.Error, and the server drops the waiter.
func TestAwaitCancelRemovesWaiter(t *testing.T) {
	for _, k := range gateKinds {
		t.Run(k.name, func(t *testing.T) {
			c := openT(t)
			id := k.open(c)
			ctx, cancel := context.WithTimeout(bg, time.Minute)
			defer cancel()
			done := startAwait(ctx, c, k, id)
			waitStats(t, c, "waiter parked", gateWaiters(1))
			cancelled := time.Now()
			cancel()
			var r awaitResult
			select {
			case r = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("await did not return after cancel")
			}
			if took := time.Since(cancelled); took > 2*time.Second {
				t.Fatalf("await took %v after cancel", took)
			}
			if !errors.Is(r.err, context.Canceled) {
				t.Fatalf("error %v does not wrap context.Canceled", r.err)
			}
			var e *messages.Error
			if !errors.As(r.err, &e) || e.Code != messages.CodeUnavailable {
				t.Fatalf("error %v is not a *messages.Error unavailable", r.err)
			}
			waitStats(t, c, "waiter removed", gateWaiters(0))
			// The gate itself is untouched and can still be decided.
			noErr(t, k.resolve(c, id))
		})
	}
}

// At the context's deadline the server's own timer answers: the gate comes
// back pending, without error, just before the deadline.
func TestAwaitDeadlineReturnsPending(t *testing.T) {
	c := openT(t)
	g := must[*ApprovalGate](t)(c.RequestApproval(bg, ApprovalInput{Title: "slow"}))
	ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	got, err := c.AwaitApproval(ctx, g.ID)
	if err != nil || !got.Pending() || got.ID != g.ID {
		t.Fatalf("AwaitApproval at deadline: %+v %v", got, err)
	}
	if took := time.Since(start); took < 200*time.Millisecond || took > 2*time.Second {
		t.Fatalf("AwaitApproval with a 300ms deadline took %v", took)
	}
	waitStats(t, c, "waiter gone", gateWaiters(0))
}

func TestAwaitEdgeCases(t *testing.T) {
	c := openT(t)
	// Already decided: returns at once.
	g := must[*ApprovalGate](t)(c.RequestApproval(bg, ApprovalInput{Title: "done"}))
	must[*ApprovalGate](t)(c.ResolveApproval(bg, g.ID, Approve, ""))
	if got := must[*ApprovalGate](t)(c.AwaitApproval(bg, g.ID)); got.Status != StatusApproved {
		t.Fatalf("await a decided gate: %+v", got)
	}
	// Unknown: 404 with a message.
	_, err := c.AwaitApproval(bg, "appr-ghost")
	wantErr(t, err, 404, messages.CodeNotFound, `approval gate "appr-ghost" not found`)
	// A context that is already over: error, nothing parked.
	p := must[*ApprovalGate](t)(c.RequestApproval(bg, ApprovalInput{Title: "p"}))
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err = c.AwaitApproval(ctx, p.ID)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("await with a cancelled context: %v", err)
	}
	ctx, cancel = context.WithDeadline(bg, time.Now().Add(-time.Second))
	defer cancel()
	_, err = c.AwaitMode(ctx, "mode-any")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("await past the deadline: %v", err)
	}
	waitStats(t, c, "nothing parked", gateWaiters(0))

	// A gate removed while waiting (clear) answers 404.
	done := startAwait(bg, c, gateKinds[0], p.ID)
	waitStats(t, c, "waiter parked", gateWaiters(1))
	noErr(t, c.Clear(bg))
	select {
	case r := <-done:
		wantErr(t, r.err, 404, messages.CodeNotFound, p.ID)
	case <-time.After(10 * time.Second):
		t.Fatal("await did not return after clear")
	}
}

func TestParkWait(t *testing.T) {
	if w, last := parkWait(bg); w != messages.AxWaitMax || last {
		t.Fatalf("no deadline: %v %v", w, last)
	}
	cases := []struct {
		in       time.Duration
		min, max time.Duration
		last     bool
	}{
		{time.Second, 899 * time.Millisecond, 901 * time.Millisecond, true},
		{10 * time.Second, 9740 * time.Millisecond, 9751 * time.Millisecond, true},
		{10 * time.Minute, messages.AxWaitMax, messages.AxWaitMax, false},
		{-time.Second, 0, 0, true},
	}
	for _, tc := range cases {
		ctx, cancel := context.WithTimeout(bg, tc.in)
		w, last := parkWait(ctx)
		cancel()
		if w < tc.min || w > tc.max || last != tc.last {
			t.Errorf("deadline in %v: wait %v last %v, want %v..%v last %v", tc.in, w, last, tc.min, tc.max, tc.last)
		}
	}
}

// A claim with Wait parks until steering for the consumer arrives.
func TestClaimPendingWaits(t *testing.T) {
	c := openT(t)
	done := make(chan *Delivery, 1)
	errs := make(chan error, 1)
	go func() {
		d, err := c.ClaimPending(bg, DeliveryClaim{Consumer: "agent", Wait: time.Minute})
		if err != nil {
			errs <- err
			return
		}
		done <- d
	}()
	waitStats(t, c, "claim parked", func(s *AxStats) bool { return s.DeliveryWaiters == 1 })
	must[*Steering](t)(c.WithSource("browser").SendSteering(bg, "wake up"))
	select {
	case d := <-done:
		if len(d.Pending) != 1 || d.Pending[0].Message != "wake up" {
			t.Fatalf("claim: %+v", d)
		}
		noErr(t, c.MarkDelivered(bg, d.Pending[0].ID, "agent"))
	case err := <-errs:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("claim did not return after steering")
	}
	waitStats(t, c, "claim gone", func(s *AxStats) bool { return s.DeliveryWaiters == 0 })

	// Cancelled: error wrapping ctx.Err(), waiter removed.
	ctx, cancel := context.WithCancel(bg)
	go func() {
		_, err := c.ClaimPending(ctx, DeliveryClaim{Consumer: "agent", Wait: time.Minute})
		errs <- err
	}()
	waitStats(t, c, "claim parked", func(s *AxStats) bool { return s.DeliveryWaiters == 1 })
	cancel()
	select {
	case err := <-errs:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled claim: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("claim did not return after cancel")
	}
	waitStats(t, c, "claim removed", func(s *AxStats) bool { return s.DeliveryWaiters == 0 })

	// A deadline shorter than Wait bounds the wait: an empty answer, no error.
	ctx, cancel = context.WithTimeout(bg, 200*time.Millisecond)
	defer cancel()
	d, err := c.ClaimPending(ctx, DeliveryClaim{Consumer: "agent", Wait: time.Minute})
	if err != nil || len(d.Pending) != 0 {
		t.Fatalf("claim bounded by the deadline: %+v %v", d, err)
	}
}
