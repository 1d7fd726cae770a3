package persistence

import (
	"strings"
	"testing"
)

// The tail scanner never panics and never claims more bytes than it read.
func FuzzLastGoodOffset(f *testing.F) {
	f.Add("*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n")
	f.Add("*3\r\n$3\r\nset\r\n$1\r\na\r\n$10\r\n12")
	f.Add("\x00\x00*2\r\n$3\r\ndel\r\n$1\r\na\r\n")
	f.Add("*-1\r\n")
	f.Add("*2\r\n$99999999999999999999\r\n")
	f.Fuzz(func(t *testing.T, data string) {
		off, _ := lastGoodOffset(strings.NewReader(data))
		if off < 0 || off > int64(len(data)) {
			t.Fatalf("offset %d outside 0..%d", off, len(data))
		}
	})
}
