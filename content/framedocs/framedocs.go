// Package framedocs keeps the short-lived HTML documents the workbench
// hands to sandboxed frames (POST /api/canvas/frame-documents): each is
// stored under a random id with its sandbox tokens and served back once
// asked for. They are not canvas state — a restart forgets them, as the
// reference did — and the store is bounded (count and bytes), oldest out.
package framedocs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
)

// Limits of one document and of the store.
const (
	MaxBytes      = 5 << 20
	MaxDocs       = 64
	MaxTotalBytes = 64 << 20
)

// Allowed are the sandbox tokens a frame document may ask for.
var Allowed = []string{"allow-downloads", "allow-forms", "allow-modals", "allow-orientation-lock", "allow-pointer-lock",
	"allow-popups", "allow-popups-to-escape-sandbox", "allow-presentation", "allow-scripts", "allow-storage-access-by-user-activation"}

// Errors with the reference's texts.
var (
	ErrEmpty     = errors.New("Frame document requires non-empty html.")
	ErrTooLarge  = errors.New("Frame document is too large.")
	ErrBadTokens = errors.New("Frame document sandbox contains unsupported tokens.")
)

// Doc is a stored document.
type Doc struct {
	HTML    string
	Sandbox string // the CSP sandbox tokens, space-separated
}

// Store holds frame documents; safe for concurrent use.
type Store struct {
	mu    sync.Mutex
	docs  map[string]Doc
	order []string
	bytes int
}

// New returns an empty store.
func New() *Store { return &Store{docs: map[string]Doc{}} }

// Sandbox validates space-separated tokens (default allow-scripts),
// dropping duplicates.
func Sandbox(tokens string) (string, error) {
	fields := strings.Fields(tokens)
	if len(fields) == 0 {
		return "allow-scripts", nil
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range fields {
		ok := false
		for _, a := range Allowed {
			ok = ok || a == t
		}
		if !ok {
			return "", ErrBadTokens
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return strings.Join(out, " "), nil
}

// Put stores a document and returns its id.
func (s *Store) Put(html, sandbox string) (string, error) {
	if strings.TrimSpace(html) == "" {
		return "", ErrEmpty
	}
	if len(html) > MaxBytes {
		return "", ErrTooLarge
	}
	tokens, err := Sandbox(sandbox)
	if err != nil {
		return "", err
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[id] = Doc{HTML: html, Sandbox: tokens}
	s.order = append(s.order, id)
	s.bytes += len(html)
	for len(s.order) > MaxDocs || s.bytes > MaxTotalBytes {
		old := s.order[0]
		s.order = s.order[1:]
		s.bytes -= len(s.docs[old].HTML)
		delete(s.docs, old)
	}
	return id, nil
}

// Get returns a stored document.
func (s *Store) Get(id string) (Doc, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[id]
	return d, ok
}
