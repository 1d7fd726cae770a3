package ax

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"
)

func TestSurfaceToken(t *testing.T) {
	secret := []byte("server-secret")
	tok := SurfaceToken(secret, "canvas-1", "node-a")

	// Independently computed MAC: domain tag, 8-byte big-endian canvas id
	// length, canvas id, node id.
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("pmx-canvas/ax-surface-token/v1"))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len("canvas-1")))
	m.Write(n[:])
	m.Write([]byte("canvas-1node-a"))
	mac := m.Sum(nil)
	if want := base64.RawURLEncoding.EncodeToString(mac); tok != want {
		t.Fatalf("token %s, want %s", tok, want)
	}
	if len(tok) != 43 || !regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(tok) {
		t.Fatalf("token %q is not bridge-safe", tok)
	}
	if SurfaceToken(secret, "canvas-1", "node-a") != tok {
		t.Fatal("token is not deterministic")
	}
	for _, other := range [][3]string{
		{"server-secret", "canvas-1", "node-b"},
		{"server-secret", "canvas-2", "node-a"},
		{"other-secret", "canvas-1", "node-a"},
		{"server-secret", "canvas-1n", "ode-a"}, // same concatenation, other split
	} {
		if SurfaceToken([]byte(other[0]), other[1], other[2]) == tok {
			t.Errorf("%v gives the same token", other)
		}
	}

	for _, tc := range []struct {
		name                  string
		secret                []byte
		canvasID, nodeID, tok string
		want                  bool
	}{
		{"base64url", secret, "canvas-1", "node-a", tok, true},
		{"padded base64url", secret, "canvas-1", "node-a", base64.URLEncoding.EncodeToString(mac), true},
		{"hex", secret, "canvas-1", "node-a", hex.EncodeToString(mac), true},
		{"upper-case hex", secret, "canvas-1", "node-a", strings.ToUpper(hex.EncodeToString(mac)), true},
		{"other node", secret, "canvas-1", "node-b", tok, false},
		{"other canvas", secret, "canvas-2", "node-a", tok, false},
		{"other secret", []byte("x"), "canvas-1", "node-a", tok, false},
		{"empty secret never validates", nil, "canvas-1", "node-a", SurfaceToken(nil, "canvas-1", "node-a"), false},
		{"empty token", secret, "canvas-1", "node-a", "", false},
		{"truncated", secret, "canvas-1", "node-a", tok[:42], false},
		{"one char changed", secret, "canvas-1", "node-a", flip(tok), false},
		{"std base64 character", secret, "canvas-1", "node-a", "+" + tok[1:], false},
		{"not hex", secret, "canvas-1", "node-a", strings.Repeat("z", 64), false},
		{"client nonce shape", secret, "canvas-1", "node-a", "ax-123e4567-e89b-12d3-a456-426614174000", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ValidSurfaceToken(tc.secret, tc.canvasID, tc.nodeID, tc.tok); got != tc.want {
				t.Fatalf("ValidSurfaceToken = %v, want %v", got, tc.want)
			}
		})
	}
}

// flip changes the first character of s to another base64url character.
func flip(s string) string {
	c := byte('A')
	if s[0] == 'A' {
		c = 'B'
	}
	return string(c) + s[1:]
}
