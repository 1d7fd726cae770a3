package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Finding a workspace's server, one rule for the CLI, pmx-canvas mcp and
// watch:
//
//  1. an explicit URL (--server-url, PMX_CANVAS_URL) or port (--port,
//     PMX_CANVAS_PORT, PMX_WEB_CANVAS_PORT), as given;
//  2. else the workspace's record of its running server
//     (<workspace>/.pmx-canvas/server.json), once /health at its URL
//     confirms the workspace and pid; a record whose pid is gone is removed;
//  3. else the default port on 127.0.0.1.

// Lookup says what a client was told about its server.
type Lookup struct {
	// URL is an explicit server URL and URLFrom where it came from
	// ("--server-url", "PMX_CANVAS_URL").
	URL, URLFrom string
	// Port is an explicit port and PortFrom where it came from ("--port",
	// "PMX_CANVAS_PORT").
	Port     int
	PortFrom string
	// Workspace whose record to read; empty means the current directory.
	Workspace string
	// Token is sent with the record's health check.
	Token string
	// DefaultPort is the last resort (4313).
	DefaultPort int
	// NoRecord skips the record (an explicit choice was made elsewhere).
	NoRecord bool
}

// Found is the server a Lookup chose and how.
type Found struct {
	Base string
	// From says where Base came from: "--server-url", "PMX_CANVAS_URL",
	// "--port", "PMX_CANVAS_PORT", "the workspace's server record" or
	// "the default port".
	From string
	// Record is the verified record, when Base came from it.
	Record *Record
	// Workspace is the absolute workspace whose record was consulted.
	Workspace string
	// Notes say what was looked at and passed over (a stale record, one
	// that did not answer), for messages.
	Notes []string
}

// FromRecord reports whether the server came from the workspace record.
func (f *Found) FromRecord() bool { return f.Record != nil }

// Explicit reports whether the server was named by a flag or variable.
func (f *Found) Explicit() bool {
	return f.Record == nil && f.From != "the default port"
}

// Describe is the server and its origin for a message: "http://127.0.0.1:
// 4313 (the default port; no server is recorded for /ws)".
func (f *Found) Describe() string {
	why := f.From
	if f.Record != nil {
		why = "from " + RecordPath(f.Workspace) + ", pid " + strconv.Itoa(f.Record.PID)
	} else if f.Explicit() {
		why = "from " + f.From
	}
	if len(f.Notes) > 0 {
		why += "; " + strings.Join(f.Notes, "; ")
	}
	return f.Base + " (" + why + ")"
}

// Locate applies the rule. Only the record is checked here (a record is a
// claim to verify); an explicit or default address is returned as it is,
// and the call made to it reports whether something answers.
func Locate(ctx context.Context, l Lookup) *Found {
	if l.DefaultPort == 0 {
		l.DefaultPort = 4313
	}
	ws := l.Workspace
	if ws == "" {
		ws = "."
	}
	if abs, err := absDir(ws); err == nil {
		ws = abs
	}
	f := &Found{Workspace: ws}
	switch {
	case l.URL != "":
		f.Base, f.From = strings.TrimSuffix(l.URL, "/"), l.URLFrom
		return f
	case l.Port != 0:
		f.Base, f.From = "http://127.0.0.1:"+strconv.Itoa(l.Port), l.PortFrom
		return f
	}
	if !l.NoRecord {
		if r, note := CheckRecord(ctx, ws, l.Token); r != nil {
			f.Base, f.From, f.Record = strings.TrimSuffix(r.URL, "/"), "the workspace's server record", r
			return f
		} else if note != "" {
			f.Notes = append(f.Notes, note)
		}
	}
	f.Base, f.From = "http://127.0.0.1:"+strconv.Itoa(l.DefaultPort), "the default port"
	return f
}

// CheckRecord returns the workspace's record when its server confirms it,
// else nil and a note saying why not ("" when there is no record). A
// record whose process is gone is removed.
func CheckRecord(ctx context.Context, ws, token string) (*Record, string) {
	r, err := ReadRecord(ws)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "no server is recorded for " + ws
	}
	if err != nil {
		return nil, "unreadable server record: " + err.Error()
	}
	verr := VerifyRecord(ctx, r, token, 2*time.Second)
	if verr == nil {
		return r, ""
	}
	if !ProcessAlive(r.PID) {
		_ = os.Remove(RecordPath(ws))
		return nil, fmt.Sprintf("removed a stale server record (pid %d is gone)", r.PID)
	}
	return nil, fmt.Sprintf("the recorded server %s (pid %d) did not answer: %v", r.URL, r.PID, verr)
}
