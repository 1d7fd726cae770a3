package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The server record: a running server's note, in its workspace, of where
// it listens. A server writes <workspace>/.pmx-canvas/server.json once it
// listens (the store's lock makes it the only server of that workspace) and
// removes it when it closes. Clients in the workspace (the CLI, pmx-canvas
// mcp, watch) read it to find the server on whatever port it runs, and
// trust it only after /health at its URL answers with the same workspace
// and pid. A record left by a server that was killed names a pid that is
// gone: Locate ignores it and removes it.

// RecordFile is the record's name inside <workspace>/.pmx-canvas/.
const RecordFile = "server.json"

// Record is what a running server writes about itself. It carries no
// secret (a server's token is never written).
type Record struct {
	URL       string `json:"url"` // base URL a client on this machine dials
	PID       int    `json:"pid"`
	Workspace string `json:"workspace"`
	Port      int    `json:"port"`
	Version   string `json:"version,omitempty"`
	StartedAt string `json:"startedAt,omitempty"`
}

// RecordPath is the record file of workspace ws.
func RecordPath(ws string) string { return filepath.Join(ws, ".pmx-canvas", RecordFile) }

// WriteRecord writes r as the workspace's record, atomically.
func WriteRecord(r Record) error {
	path := RecordPath(r.Workspace)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + "." + strconv.Itoa(os.Getpid()) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// RemoveRecord removes the workspace's record if it still names pid (a
// newer server's record is left alone).
func RemoveRecord(ws string, pid int) {
	if r, err := ReadRecord(ws); err == nil && r.PID == pid {
		_ = os.Remove(RecordPath(ws))
	}
}

// ReadRecord reads the workspace's record; os.ErrNotExist when there is
// none.
func ReadRecord(ws string) (*Record, error) {
	b, err := os.ReadFile(RecordPath(ws))
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", RecordPath(ws), err)
	}
	if r.URL == "" || r.PID <= 0 {
		return nil, fmt.Errorf("%s: no url or pid", RecordPath(ws))
	}
	return &r, nil
}

// ProcessAlive reports whether pid is a running process of this machine
// (one owned by another user counts as running).
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		// "<pid> (<comm>) <state> ...": an exited, unreaped process is Z.
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X') {
			return false
		}
	}
	return true
}

// VerifyRecord checks that the server the record names answers /health at
// its URL for the record's workspace, with the record's pid.
func VerifyRecord(ctx context.Context, r *Record, token string, timeout time.Duration) error {
	h, err := ProbeToken(ctx, r.URL, token, timeout)
	if err != nil {
		return err
	}
	if h.Workspace != "" && !SameDir(h.Workspace, r.Workspace) {
		return fmt.Errorf("%s serves another workspace (%s)", r.URL, h.Workspace)
	}
	if h.PID != 0 && h.PID != r.PID {
		return fmt.Errorf("%s is another process (pid %d, the record names %d)", r.URL, h.PID, r.PID)
	}
	return nil
}

// SameDir reports whether a and b name the same directory (symlinks
// resolved where they exist).
func SameDir(a, b string) bool {
	clean := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	return clean(a) == clean(b)
}

// ProbeToken is Probe with a bearer token (a server started with --token
// answers /health only with it).
func ProbeToken(ctx context.Context, base, token string, timeout time.Duration) (*Health, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/health", nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	// A keep-alive client, as Probe uses: with DisableKeepAlives the
	// probed server's graceful shutdown sometimes waited out its whole
	// deadline (TestSmokeOnAFreshMachine, about one run in ten under -race).
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var h Health
	if res.StatusCode/100 != 2 || json.NewDecoder(res.Body).Decode(&h) != nil || !h.OK {
		return nil, ErrNotPMX
	}
	return &h, nil
}

// absDir is the absolute, symlink-resolved form of dir.
func absDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}
