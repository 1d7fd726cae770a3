package httpapi

import (
	"context"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// parking reports whether this call of a Parks operation (its input
// decoded in env.Args) will wait or lease in its owner's mailbox.
func parking(env *messages.Envelope) bool {
	p, ok := env.Args.(messages.Parker)
	if !ok {
		return false
	}
	wait, mailbox := p.Park()
	return wait > 0 || mailbox
}

// watchDisconnect cancels a long-poll as soon as its client goes away.
// fasthttp does not tell a running handler that the connection closed, so
// a goroutine reads the connection: the request has been read in full, so
// the read returns only when the client closes (EOF, reset) or sends more.
// The read deadline fasthttp set for reading the request is cleared first,
// or a wait longer than the server's read timeout would be cut short.
//
// stop ends the watch before the reply is written: a deadline in the past
// wakes the reader (deadlines live in the runtime's poller, so this costs
// no syscall), and the connection stays open for the client's next request.
// If the client sent bytes during the wait (pipelining), the watch consumed
// some of them, so the reply closes the connection instead.
func watchDisconnect(c *fiber.Ctx, cancel context.CancelFunc) (stop func()) {
	conn, ok := c.Context().Conn().(*net.TCPConn)
	if !ok {
		return func() {} // in-memory test connections have no peer to lose
	}
	var stopped, sawData atomic.Bool
	done := make(chan struct{})
	// Cleared here, not in the reader: stop's deadline must come after it.
	_ = conn.SetReadDeadline(time.Time{})
	go func() {
		defer close(done)
		var buf [1]byte
		for {
			n, err := conn.Read(buf[:])
			if n > 0 {
				sawData.Store(true)
			}
			if err != nil {
				if !stopped.Load() {
					cancel()
				}
				return
			}
		}
	}()
	return func() {
		stopped.Store(true)
		_ = conn.SetReadDeadline(time.Unix(1, 0))
		<-done
		_ = conn.SetReadDeadline(time.Time{})
		if sawData.Load() {
			c.Context().SetConnectionClose()
		}
	}
}
