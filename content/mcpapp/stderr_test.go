package mcpapp

import "testing"

func TestTailBuffer(t *testing.T) {
	b := newTailBuffer(10)
	b.Write([]byte("12345"))
	b.Write([]byte("67890ab"))
	if got := b.String(); got != "34567890ab" {
		t.Errorf("tail = %q", got)
	}
	b.Write([]byte("a much longer write\nlast"))
	if got := b.String(); got != "write\nlast" {
		t.Errorf("tail = %q", got)
	}
	if got := b.lastLines(5); got != "write | last" {
		t.Errorf("lastLines = %q", got)
	}
}
