package ax

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"slices"
)

// The workbench surface is the human's own page. Unlike a node surface it
// speaks for no node: it answers the gates agents open (approvals,
// elicitations, mode requests) and steers, and what it decides is recorded
// as the browser's. It acts through the same interaction route as every
// surface, so the policy, the ax-interaction frames and the refusals are
// the same; what binds it is a token the server issues per canvas, which a
// sandboxed node surface (an opaque origin that cannot read the server's
// replies) cannot obtain.

// WorkbenchSurface is the sourceSurface value of the workbench.
const WorkbenchSurface = "workbench"

// WorkbenchSource is the source the workbench's interactions are recorded
// with, whatever the envelope says: the person deciding is at the browser.
const WorkbenchSource = "browser"

// WorkbenchTypes are the interaction types the workbench may send: the
// human's side of the gates, steering, and the work board and focus the
// human keeps.
var WorkbenchTypes = ix("approval.resolve", "elicitation.respond", "mode.resolve", "steer",
	"work.create", "work.update", "focus.set", "event.record", "evidence.add")

// workbenchTokenDomain separates the workbench token from node surface
// tokens: no node id, whatever its bytes, has the same MAC.
const workbenchTokenDomain = "pmx-canvas/ax-workbench-token/v1"

func workbenchMAC(secret []byte, canvasID string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(workbenchTokenDomain))
	m.Write([]byte(canvasID))
	return m.Sum(nil)
}

// WorkbenchToken is the token the workbench presents on its interactions
// with canvasID: an HMAC under the server's secret, unpadded base64url.
func WorkbenchToken(secret []byte, canvasID string) string {
	return base64.RawURLEncoding.EncodeToString(workbenchMAC(secret, canvasID))
}

// ValidWorkbenchToken checks a workbench token in constant time. An empty
// secret validates nothing.
func ValidWorkbenchToken(secret []byte, canvasID, token string) bool {
	if len(secret) == 0 || len(token) != base64.RawURLEncoding.EncodedLen(sha256.Size) {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil && hmac.Equal(got, workbenchMAC(secret, canvasID))
}

// checkWorkbench is the workbench's counterpart of the node checks: the
// type must be one the workbench may send (403 not-allowed).
func checkWorkbench(it *Interaction) *Rejection {
	if !slices.Contains(WorkbenchTypes, it.Type) {
		return it.reject(403, RejectNotAllowed, `The workbench cannot emit "`+it.Type+`".`)
	}
	return nil
}
