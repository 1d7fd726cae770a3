package ax

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
)

// Surface tokens bind a sandboxed surface to its node: the server issues
// one per (canvas, node) and checks it on the interactions the surface
// sends, so a surface cannot speak for another node.

// surfaceTokenDomain separates these MACs from any other use of the secret.
const surfaceTokenDomain = "pmx-canvas/ax-surface-token/v1"

func surfaceMAC(secret []byte, canvasID, nodeID string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(surfaceTokenDomain))
	// Length-prefix the canvas id so ("ab","c") and ("a","bc") differ.
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(canvasID)))
	m.Write(n[:])
	m.Write([]byte(canvasID))
	m.Write([]byte(nodeID))
	return m.Sum(nil)
}

// surfaceToken renders the MAC as unpadded base64url (43 characters of
// [A-Za-z0-9_-], within the 64 the surface bridge keeps).
func surfaceToken(secret []byte, canvasID, nodeID string) string {
	return base64.RawURLEncoding.EncodeToString(surfaceMAC(secret, canvasID, nodeID))
}

// validSurfaceToken accepts the MAC as hex or base64url (padded or not) and
// compares in constant time. An empty secret validates nothing.
func validSurfaceToken(secret []byte, canvasID, nodeID, token string) bool {
	if len(secret) == 0 || token == "" {
		return false
	}
	var got []byte
	var err error
	switch len(token) {
	case hex.EncodedLen(sha256.Size):
		got, err = hex.DecodeString(token)
	case base64.RawURLEncoding.EncodedLen(sha256.Size):
		got, err = base64.RawURLEncoding.DecodeString(token)
	case base64.URLEncoding.EncodedLen(sha256.Size):
		got, err = base64.URLEncoding.DecodeString(token)
	default:
		return false
	}
	if err != nil {
		return false
	}
	return hmac.Equal(got, surfaceMAC(secret, canvasID, nodeID))
}
