package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
	"github.com/pmxcanvas/pmx-canvas/content/workspace"
)

// App transports may carry secrets: HTTP headers (Authorization) and
// stdio environment variables (API keys). Node data is read by every
// agent and the browser, so it records their names only ("<redacted>"
// values); the full transport, which re-opening the app after a restart
// needs, is kept in the workspace store, readable by this user only.

// redacted stands for a secret value in node data.
const redacted = "<redacted>"

// appSecretsDir is where the full transports are kept, per node.
const appSecretsDir = workspace.StateDir + "/app-transports"

// hasSecrets reports whether a transport carries headers or env values.
func hasSecrets(t mcpapp.Transport) bool { return len(t.Headers) > 0 || len(t.Env) > 0 }

// publicTransport is the transport as node data: secret values redacted.
func publicTransport(t mcpapp.Transport) map[string]any {
	pub := t
	pub.Headers, pub.Env = redactValues(t.Headers), redactValues(t.Env)
	return transportConfig(pub)
}

func redactValues(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = redacted
	}
	return out
}

// secretsPath is the file of a node's full transport.
func (s *System) secretsPath(canvasID, nodeID string) string {
	safe := func(v string) string {
		return strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r == 0 || r == '.' {
				return '_'
			}
			return r
		}, v)
	}
	return filepath.Join(s.content.root.Dir(), appSecretsDir, safe(canvasID), safe(nodeID)+".json")
}

// saveSecrets keeps a node's full transport (0600), or removes a stale one.
func (s *System) saveSecrets(canvasID, nodeID string, t mcpapp.Transport) error {
	p := s.secretsPath(canvasID, nodeID)
	if !hasSecrets(t) {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// withSecrets fills a stored transport's redacted values from the node's
// secrets file; an error says what is missing.
func (s *System) withSecrets(canvasID, nodeID string, t mcpapp.Transport) (mcpapp.Transport, error) {
	if !redactedIn(t.Headers) && !redactedIn(t.Env) {
		return t, nil
	}
	b, err := os.ReadFile(s.secretsPath(canvasID, nodeID))
	if err != nil {
		return t, fmt.Errorf("the app's headers or environment are not stored on this server any more: reopen it with its transport")
	}
	var full mcpapp.Transport
	if err := json.Unmarshal(b, &full); err != nil {
		return t, fmt.Errorf("the app's stored transport is unreadable: %v", err)
	}
	return full, nil
}

func redactedIn(m map[string]string) bool {
	for _, v := range m {
		if v == redacted {
			return true
		}
	}
	return false
}
