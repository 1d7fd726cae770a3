package pmxcanvas

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Waits. A gate await or a delivery claim parks a waiter in the actor that
// owns the gate or the steering (a mailbox wait, no goroutine sleeps): the
// call sends waitMs, the owner answers at the decision or when waitMs ends
// (pending), and a cancelled context removes the waiter at once (see
// AxStats). waitMs comes from the context's deadline, less a little slack
// so the owner's answer arrives before the deadline does; without a
// deadline the call parks in rounds of messages.AxWaitMax until decided or
// cancelled.

// awaitSlackMax is the most a deadline-derived wait leaves for the reply
// to travel back before the deadline.
const awaitSlackMax = 250 * time.Millisecond

// parkWait returns how long one parked read may wait and whether it is the
// last round the context allows.
func parkWait(ctx context.Context) (wait time.Duration, last bool) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return messages.AxWaitMax, false
	}
	rem := time.Until(deadline)
	wait = rem - min(rem/10, awaitSlackMax)
	if wait > messages.AxWaitMax {
		return messages.AxWaitMax, false
	}
	if wait < time.Millisecond {
		return 0, true
	}
	return wait, true
}

func waitMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// gateRead is a generated gate read: AxApprovalGet, AxElicitationGet or
// AxModeGet.
type gateRead[R any] func(context.Context, *messages.AxAwaitInput) (*R, error)

// readGate reads a gate, parking up to wait (0: at once). noun names the
// gate kind in the 404 message, which the route's body lacks.
func readGate[R any](ctx context.Context, read gateRead[R], noun, id string, wait time.Duration) (*R, error) {
	in := &messages.AxAwaitInput{ID: id}
	if wait > 0 {
		in.WaitMs = Ptr(waitMs(wait))
	}
	r, err := read(ctx, in)
	var e *messages.Error
	if err != nil && errors.As(err, &e) && e.Status == http.StatusNotFound && e.Extra["pending"] != nil {
		e.Message = fmt.Sprintf("%s %q not found", noun, id)
		delete(e.Extra, "pending")
	}
	return r, err
}

// awaitGate parks on a gate until it is decided or ctx ends, and returns
// the gate (of picks it from the reply). A deadline is an answer: the gate
// comes back still pending. Cancellation is an error wrapping ctx.Err().
func awaitGate[R any, G interface{ Pending() bool }](ctx context.Context, read gateRead[R], of func(*R) G, noun, id string) (G, error) {
	var zero G
	for {
		if err := ctx.Err(); err != nil {
			return zero, &ctxError{err: messages.Unavailable("%s %q: the wait ended", noun, id), cause: err}
		}
		wait, last := parkWait(ctx)
		r, err := readGate(ctx, read, noun, id, wait)
		if err != nil {
			return zero, err
		}
		if g := of(r); !g.Pending() || last {
			return g, nil
		}
	}
}

// AwaitApproval waits until the gate is approved or rejected, or ctx ends.
// At ctx's deadline it returns the gate still pending (Pending() true) and
// no error; when ctx is cancelled it returns an error wrapping ctx.Err()
// and the server drops the waiter at once. An unknown gate (or one removed
// by a restore or clear while waiting) is 404 not-found.
func (c *Canvas) AwaitApproval(ctx context.Context, id string) (*ApprovalGate, error) {
	return awaitGate(ctx, c.AxApprovalGet, approvalOf, "approval gate", id)
}

// AwaitElicitation waits until the elicitation is answered, or ctx ends,
// as AwaitApproval does.
func (c *Canvas) AwaitElicitation(ctx context.Context, id string) (*Elicitation, error) {
	return awaitGate(ctx, c.AxElicitationGet, elicitationOf, "elicitation", id)
}

// AwaitMode waits until the mode request is approved or rejected, or ctx
// ends, as AwaitApproval does.
func (c *Canvas) AwaitMode(ctx context.Context, id string) (*ModeRequest, error) {
	return awaitGate(ctx, c.AxModeGet, modeOf, "mode request", id)
}

// DeliveryClaim claims undelivered steering for a consumer.
type DeliveryClaim struct {
	// Consumer is who claims; steering it sent itself is left out.
	Consumer string
	// Limit caps the steering rows (<= 0: 50, at most 200).
	Limit int
	// Wait, when nothing is pending for the consumer, waits up to this long
	// (at most messages.AxWaitMax, and no longer than ctx's deadline
	// allows) for a steering message to arrive.
	Wait time.Duration
	// Lease hides the returned rows from other consumers for this long, or
	// until marked (requires Consumer).
	Lease time.Duration
}

// ClaimPending claims undelivered steering for a consumer, optionally
// waiting for some and leasing it. Cancelling ctx ends the wait and drops
// the waiter; the error wraps ctx.Err().
func (c *Canvas) ClaimPending(ctx context.Context, claim DeliveryClaim) (*Delivery, error) {
	in := &messages.AxDeliveryPendingInput{Consumer: claim.Consumer}
	if claim.Limit > 0 {
		in.Limit = claim.Limit
	}
	if claim.Wait > 0 {
		wait := min(claim.Wait, messages.AxWaitMax)
		if w, last := parkWait(ctx); last && w < wait {
			wait = w
		}
		if wait > 0 {
			in.WaitMs = Ptr(waitMs(wait))
		}
	}
	if claim.Lease > 0 {
		in.LeaseMs = Ptr(waitMs(claim.Lease))
	}
	return c.AxDeliveryPending(ctx, in)
}

// MarkDelivered marks a steering message delivered. With a consumer it is
// a compare-and-set on the lease: while another consumer holds it, 409
// lease-held. Marking a delivered message again succeeds.
func (c *Canvas) MarkDelivered(ctx context.Context, id, consumer string) error {
	_, err := c.AxDeliveryMark(ctx, &messages.AxDeliveryMarkInput{ID: id, Consumer: consumer})
	return err
}
