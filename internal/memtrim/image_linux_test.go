package memtrim

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestParseSmapsKeepsOnlyTheImagesUnwrittenReadOnlyMappings(t *testing.T) {
	smaps := `00400000-00402000 r--p 00000000 fe:00 99 /bin/app
Size:                  8 kB
Anonymous:             0 kB
00402000-01309000 r-xp 00002000 fe:00 99 /bin/app
Size:              15388 kB
Anonymous:             0 kB
01309000-02d03000 r--p 00f09000 fe:00 99 /bin/app
Anonymous:             0 kB
VmFlags: rd mr mw me
02d03000-02d04000 r--p 02903000 fe:00 99 /bin/app
Anonymous:             4 kB
02d04000-02f2e000 rw-p 02904000 fe:00 99 /bin/app
Anonymous:           216 kB
02f2e000-02f30000 r--s 00000000 fe:00 99 /bin/app
Anonymous:             0 kB
7f0000000000-7f0000001000 r-xp 00000000 fe:00 12 /usr/lib/libc.so.6
Anonymous:             0 kB
7f0000002000-7f0000003000 r-xp 00000000 fe:00 13 /bin/app-other
c000000000-c004000000 rw-p 00000000 00:00 0
Anonymous:         65536 kB
`
	got := parseSmaps([]byte(smaps), "/bin/app")
	want := []Image{{0x400000, 0x402000, "r--p"}, {0x402000, 0x1309000, "r-xp"}, {0x1309000, 0x2d03000, "r--p"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v (the RELRO page, written by the loader, must not be listed)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("mapping %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// residentFileKiB reads RssFile of this process.
func residentFileKiB(t *testing.T) int {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "RssFile:") {
			n, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

func TestDropImagePagesShrinksResidentFilePagesAndTheProgramRuns(t *testing.T) {
	before := residentFileKiB(t)
	advised, err := DropImagePages()
	if err != nil {
		t.Fatal(err)
	}
	if advised == 0 {
		t.Fatal("no mapping of the test binary was advised")
	}
	after := residentFileKiB(t)
	if after >= before {
		t.Fatalf("RssFile %d KiB before, %d after: nothing left the page table", before, after)
	}
	// Code and read-only data come back on use: the runtime, reflection and
	// this package still work.
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		sb.WriteString(strings.Repeat("x", i%7))
	}
	if sb.Len() == 0 {
		t.Fatal("unreachable")
	}
	if _, err := imageMappings(); err != nil {
		t.Fatal(err)
	}
}
