package httpapi

import (
	"context"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// parking decodes a Parks operation's input and reports whether this call
// will wait in its owner's mailbox.
func parking(op *messages.Op, env *messages.Envelope) (bool, *messages.Error) {
	args, err := op.DecodeInput(env.Input)
	if err != nil {
		return false, err
	}
	env.Args = args
	p, ok := args.(messages.Parker)
	if !ok {
		return false, nil
	}
	wait, mailbox := p.Park()
	return wait > 0 || mailbox, nil
}

// watchDisconnect cancels a long-poll as soon as its client goes away.
// fasthttp does not tell a running handler that the connection closed, so
// a goroutine reads the connection: the request has been read in full, so
// the next read returns only when the client closes (EOF, reset) or sends
// more (pipelining; the long-poll's reply closes the connection anyway).
// The read deadline fasthttp set for reading the request is cleared first,
// or a wait longer than the server's read timeout would be cut short.
//
// The returned stop only marks the watch as over: the response closes the
// connection (Connection: close), which ends the read, so stopping costs
// no syscall and no wait when thousands of waiters are released at once.
func watchDisconnect(c *fiber.Ctx, cancel context.CancelFunc) (stop func()) {
	conn, ok := c.Context().Conn().(*net.TCPConn)
	if !ok {
		return func() {} // in-memory test connections have no peer to lose
	}
	c.Context().SetConnectionClose()
	var stopped atomic.Bool
	go func() {
		_ = conn.SetReadDeadline(time.Time{})
		var buf [64]byte
		for {
			if _, err := conn.Read(buf[:]); err != nil {
				if !stopped.Load() {
					cancel()
				}
				return
			}
		}
	}()
	return func() { stopped.Store(true) }
}
