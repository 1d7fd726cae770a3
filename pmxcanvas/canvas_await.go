package pmxcanvas

import (
	"context"
	"encoding/json"
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

// gateNoun names a gate kind in messages, by its read operation.
var gateNoun = map[string]string{
	"ax.approval.get":    "approval gate",
	"ax.elicitation.get": "elicitation",
	"ax.mode.get":        "mode request",
}

// readGate reads a gate, parking up to wait (0: at once).
func (c *Canvas) readGate(ctx context.Context, op, id string, wait time.Duration, out any) (*messages.Reply, error) {
	in := fields{"id": id}
	if wait > 0 {
		in["waitMs"] = waitMs(wait)
	}
	reply, err := c.call(ctx, op, in, out)
	var e *messages.Error
	if err != nil && errors.As(err, &e) && e.Status == http.StatusNotFound && e.Extra["pending"] != nil {
		// The route's 404 body has no message of its own.
		e.Message = fmt.Sprintf("%s %q not found", gateNoun[op], id)
		delete(e.Extra, "pending")
	}
	return reply, err
}

// gateNow reads a gate at once and decodes it from the reply's key.
func gateNow[T any](ctx context.Context, c *Canvas, op, key, id string) (*T, error) {
	var reply map[string]json.RawMessage
	if _, err := c.readGate(ctx, op, id, 0, &reply); err != nil {
		return nil, err
	}
	v := new(T)
	if err := json.Unmarshal(reply[key], v); err != nil {
		return nil, messages.Internal("decode %s reply: %v", op, err)
	}
	return v, nil
}

// awaitGate parks on a gate until it is decided or ctx ends, and decodes
// the gate (reply key) into out. A deadline is an answer: the gate comes
// back still pending. Cancellation is an error wrapping ctx.Err().
func (c *Canvas) awaitGate(ctx context.Context, op, key, id string, out any) error {
	for {
		if err := ctx.Err(); err != nil {
			return &ctxError{err: messages.Unavailable("%s %q: the wait ended", gateNoun[op], id), cause: err}
		}
		wait, last := parkWait(ctx)
		var reply map[string]json.RawMessage
		if _, err := c.readGate(ctx, op, id, wait, &reply); err != nil {
			return err
		}
		var pending bool
		_ = json.Unmarshal(reply["pending"], &pending)
		if !pending || last {
			if err := json.Unmarshal(reply[key], out); err != nil {
				return messages.Internal("decode %s reply: %v", op, err)
			}
			return nil
		}
	}
}

// AwaitApproval waits until the gate is approved or rejected, or ctx ends.
// At ctx's deadline it returns the gate still pending (Pending() true) and
// no error; when ctx is cancelled it returns an error wrapping ctx.Err()
// and the server drops the waiter at once. An unknown gate (or one removed
// by a restore or clear while waiting) is 404 not-found.
func (c *Canvas) AwaitApproval(ctx context.Context, id string) (*ApprovalGate, error) {
	var g ApprovalGate
	if err := c.awaitGate(ctx, "ax.approval.get", "approvalGate", id, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// AwaitElicitation waits until the elicitation is answered, or ctx ends,
// as AwaitApproval does.
func (c *Canvas) AwaitElicitation(ctx context.Context, id string) (*Elicitation, error) {
	var e Elicitation
	if err := c.awaitGate(ctx, "ax.elicitation.get", "elicitation", id, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

// AwaitMode waits until the mode request is approved or rejected, or ctx
// ends, as AwaitApproval does.
func (c *Canvas) AwaitMode(ctx context.Context, id string) (*ModeRequest, error) {
	var m ModeRequest
	if err := c.awaitGate(ctx, "ax.mode.get", "modeRequest", id, &m); err != nil {
		return nil, err
	}
	return &m, nil
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

// Delivery is what a claim returned.
type Delivery struct {
	// Pending is the claimed steering, oldest first.
	Pending []Steering `json:"pending"`
	// PendingActivity is open AX work not created by the consumer.
	PendingActivity []PendingItem `json:"pendingActivity"`
	// LeaseExpiresAt is when the claim's lease ends (nil without a lease).
	LeaseExpiresAt *time.Time `json:"leaseExpiresAt,omitempty"`
}

// ClaimPending claims undelivered steering for a consumer, optionally
// waiting for some and leasing it. Cancelling ctx ends the wait and drops
// the waiter; the error wraps ctx.Err().
func (c *Canvas) ClaimPending(ctx context.Context, claim DeliveryClaim) (*Delivery, error) {
	in := fields{}
	in.str("consumer", claim.Consumer)
	if claim.Limit > 0 {
		in["limit"] = claim.Limit
	}
	if claim.Wait > 0 {
		wait := min(claim.Wait, messages.AxWaitMax)
		if w, last := parkWait(ctx); last && w < wait {
			wait = w
		}
		if wait > 0 {
			in["waitMs"] = waitMs(wait)
		}
	}
	if claim.Lease > 0 {
		in["leaseMs"] = waitMs(claim.Lease)
	}
	var out Delivery
	if _, err := c.call(ctx, "ax.delivery.pending", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MarkDelivered marks a steering message delivered. With a consumer it is
// a compare-and-set on the lease: while another consumer holds it, 409
// lease-held. Marking a delivered message again succeeds.
func (c *Canvas) MarkDelivered(ctx context.Context, id, consumer string) error {
	in := fields{"id": id}
	in.str("consumer", consumer)
	_, err := c.call(ctx, "ax.delivery.mark", in, nil)
	return err
}
