package diagram

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// CheckpointPrefix starts every checkpoint id the host gives the app.
const CheckpointPrefix = "pmx-"

// maxSeedLen bounds the sanitized seed in a checkpoint id.
const maxSeedLen = 80

// defaultSeed names the checkpoint of a diagram with no seed.
const defaultSeed = "diagram"

// CheckpointID is the id the host gives the Excalidraw app for saving the
// scene of the node seed names (toolResult.structuredContent.checkpointId):
// "pmx-" and the seed with every run of characters other than A-Z, a-z,
// 0-9, _ and - turned into one "-", runs of "-" collapsed and "-" trimmed
// from both ends. A seed longer than 80 characters after that is cut to 71
// and ends in "-" and 8 hex digits of its SHA-256, so long seeds stay
// distinct. An empty result becomes "pmx-diagram". The same seed always
// gives the same id, so a reopened node finds its checkpoint.
func CheckpointID(seed string) string {
	var b strings.Builder
	dash := false
	for _, r := range seed {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = false
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > maxSeedLen {
		sum := sha256.Sum256([]byte(seed))
		s = strings.TrimRight(s[:maxSeedLen-9], "-") + "-" + hex.EncodeToString(sum[:4])
	}
	if s == "" {
		s = defaultSeed
	}
	return CheckpointPrefix + s
}

// RestoreElements is what a node's toolInput.elements become once the app
// has saved checkpointID: a restoreCheckpoint for it and a 4:3 camera
// (camera widened or heightened about its centre to 4:3; a camera without a
// positive size is replaced by Camera(nil)).
func RestoreElements(checkpointID string, camera map[string]any) []map[string]any {
	return []map[string]any{
		{"type": "restoreCheckpoint", "id": checkpointID},
		fourThree(camera),
	}
}

// fourThree returns a fresh cameraUpdate with camera's view made 4:3.
func fourThree(camera map[string]any) map[string]any {
	x, _ := jsonnum.Float(camera["x"])
	y, _ := jsonnum.Float(camera["y"])
	w, okW := jsonnum.Float(camera["width"])
	h, okH := jsonnum.Float(camera["height"])
	if !okW || !okH || !(w > 0) || !(h > 0) || !finite(x, y, w, h, w*4, h*4) {
		return Camera(nil)
	}
	cx, cy := x+w/2, y+h/2
	if w*3 > h*4 {
		h = w * 3 / 4
	} else {
		w = h * 4 / 3
	}
	w, h = round2(w), round2(h)
	return map[string]any{"type": "cameraUpdate", "x": round2(cx - w/2), "y": round2(cy - h/2), "width": w, "height": h}
}
