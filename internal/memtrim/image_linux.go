package memtrim

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Image is a read-only, private mapping of the program's own executable
// file: its code or its read-only data.
type Image struct {
	Start, End uintptr
	Perms      string
}

// imageMappings lists the executable's mappings that are safe to drop from
// the page table: private, not writable, and holding no page of their own
// (smaps' Anonymous: 0). That excludes the writable data segment and the
// RELRO page: read-only now, but the dynamic loader wrote relocations into
// it, and dropping it would bring back the file's unrelocated bytes.
func imageMappings() ([]Image, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return nil, err
	}
	return parseSmaps(raw, exe), nil
}

// parseSmaps picks the droppable mappings of path out of a
// /proc/<pid>/smaps listing.
func parseSmaps(raw []byte, path string) []Image {
	var out []Image
	var cur *Image // the mapping whose fields are being read; nil: not a candidate
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Bytes()
		f := bytes.Fields(line)
		if len(f) == 0 {
			continue
		}
		if bytes.HasSuffix(f[0], []byte(":")) { // a field of the current mapping
			if cur != nil && string(f[0]) == "Anonymous:" && (len(f) < 2 || string(f[1]) != "0") {
				cur = nil // written pages: not the file's bytes any more
			}
			continue
		}
		flush() // a new mapping's header
		if len(f) < 6 || string(f[5]) != path {
			continue
		}
		perms := string(f[1])
		if len(perms) != 4 || perms[1] != '-' || perms[3] != 'p' {
			continue // writable or shared
		}
		span := bytes.SplitN(f[0], []byte("-"), 2)
		if len(span) != 2 {
			continue
		}
		start, err1 := strconv.ParseUint(string(span[0]), 16, 64)
		end, err2 := strconv.ParseUint(string(span[1]), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		cur = &Image{Start: uintptr(start), End: uintptr(end), Perms: perms}
	}
	flush()
	return out
}

// DropImagePages tells the kernel the program's code and read-only data
// pages may leave its page table. Package initialisation of a large binary
// touches code and tables all over it, and the kernel maps 64 KiB around
// each fault, so after start-up nearly the whole image stays resident
// though the running server uses a fraction of it. The pages are clean
// copies of the file: whatever is used again comes back on first touch as a
// minor fault from the page cache. It returns the bytes of address space
// advised.
func DropImagePages() (uintptr, error) {
	maps, err := imageMappings()
	if err != nil {
		return 0, err
	}
	var advised uintptr
	for _, m := range maps {
		// The addresses come from the kernel's own listing of our mappings;
		// madvise takes them as plain integers, so no unsafe.Pointer is made.
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.Start, m.End-m.Start, syscall.MADV_DONTNEED); errno != 0 {
			return advised, errno
		}
		advised += m.End - m.Start
	}
	return advised, nil
}
