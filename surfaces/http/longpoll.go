package httpapi

import (
	"context"
	"net"
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
// more (pipelining, which a long-poll response ends by closing the
// connection). The returned stop ends the watch; call it before the
// response is written.
func watchDisconnect(c *fiber.Ctx, cancel context.CancelFunc) (stop func()) {
	conn, ok := c.Context().Conn().(*net.TCPConn)
	if !ok {
		return func() {} // in-memory test connections have no peer to lose
	}
	c.Context().SetConnectionClose()
	done := make(chan struct{})
	stopping := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 512)
		for {
			if _, err := conn.Read(buf); err != nil {
				select {
				case <-stopping:
				default:
					cancel()
				}
				return
			}
		}
	}()
	return func() {
		close(stopping)
		_ = conn.SetReadDeadline(time.Now())
		<-done
		_ = conn.SetReadDeadline(time.Time{})
	}
}
