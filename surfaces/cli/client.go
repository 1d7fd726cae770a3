package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// The client side of the CLI: how a command finds the server, runs an
// operation there, prints its JSON, and fails.
//
// Finding the server, one rule for the CLI, watch and MCP (discovery.go):
//
//	--server-url, else PMX_CANVAS_URL, else --port, else PMX_CANVAS_PORT
//	(alias PMX_WEB_CANVAS_PORT), else the server this workspace's record
//	(.pmx-canvas/server.json) names once /health confirms it, else 4313.
//
// The canvas is --canvas, else PMX_CANVAS_ID, else main; the token is
// --token, else PMX_CANVAS_TOKEN.

// clientFlags are the persistent flags every agent command takes.
type clientFlags struct {
	serverURL string
	port      int
	canvas    string
	token     string
}

var client = &clientFlags{}

// addClientFlags registers the server-finding flags on cmd (persistent, so
// its subcommands inherit them). Each agent command group calls it; the
// root cannot carry them because its own serve flags use --port and --token
// for the server it starts.
func addClientFlags(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVar(&client.serverURL, "server-url", "", "server to talk to (env PMX_CANVAS_URL; default http://127.0.0.1:<port>)")
	f.IntVar(&client.port, "port", 0, "port of the server on this machine (env PMX_CANVAS_PORT; default 4313)")
	f.StringVar(&client.canvas, "canvas", "", "canvas id (env PMX_CANVAS_ID; default main)")
	f.StringVar(&client.token, "token", "", "bearer token (env PMX_CANVAS_TOKEN)")
}

// baseURL is the server a command targets (discovery.go has the rule).
func baseURL(cmd *cobra.Command) (string, error) {
	f, err := locate(cmd)
	if err != nil {
		return "", err
	}
	return f.Base, nil
}

// canvasID is the canvas a command targets.
func canvasID() string {
	if client.canvas != "" {
		return client.canvas
	}
	if v := os.Getenv("PMX_CANVAS_ID"); v != "" {
		return v
	}
	return messages.DefaultCanvas
}

// remoteClient is the HTTP client of the server a command targets.
func remoteClient(cmd *cobra.Command) (*remote.Client, error) {
	base, err := baseURL(cmd)
	if err != nil {
		return nil, err
	}
	return &remote.Client{Base: base, Token: clientToken()}, nil
}

// invoke runs one catalog operation on the target server and returns the
// reply body (the HTTP route's JSON). A connection failure says how to start
// the server; an operation error keeps its message and code.
func invoke(cmd *cobra.Command, op string, input map[string]any) (json.RawMessage, *messages.Reply, error) {
	reply, err := invokeReply(cmd, op, input)
	if err != nil {
		return nil, nil, err
	}
	body, _ := reply.Body.(json.RawMessage)
	return body, reply, nil
}

// invokeReply is invoke's reply as it is: JSON, or a *messages.Blob for a
// binary route (a screenshot).
func invokeReply(cmd *cobra.Command, op string, input map[string]any) (*messages.Reply, error) {
	c, err := remoteClient(cmd)
	if err != nil {
		return nil, err
	}
	if input == nil {
		input = map[string]any{}
	}
	raw, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	reply, err := c.Invoke(ctx, &messages.Envelope{Canvas: canvasID(), Op: op, Source: "cli", Input: raw})
	if err != nil {
		var e *messages.Error
		if errors.As(err, &e) && e.Code == messages.CodeUnavailable && strings.HasPrefix(e.Message, "pmx-canvas server at") {
			f, _ := locate(cmd)
			return nil, unreachable(f, "pmx-canvas", errors.New(e.Message))
		}
		return nil, err
	}
	return reply, nil
}

// output prints v as the command's one JSON document (2-space indent).
func output(w io.Writer, v any) error {
	var b []byte
	var err error
	if raw, ok := v.(json.RawMessage); ok {
		b, err = marshalIndent(raw) // keeps the server's key order
	} else {
		b, err = plainJSON(v, "  ")
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// cliError is a failed command: {error, hint} on stderr and exit Code
// (1 unless set).
type cliError struct {
	Msg  string
	Hint string
	Code int
}

func (e *cliError) Error() string { return e.Msg }

// die builds a cliError.
func die(hint, format string, args ...any) error {
	return &cliError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// commandAdders register command groups on the root; each file that
// defines commands appends its adder in an init function.
var commandAdders []func(root *cobra.Command, io *ioStreams)

// ioStreams are the command line's streams.
type ioStreams struct {
	In       io.Reader
	Out, Err io.Writer
}
