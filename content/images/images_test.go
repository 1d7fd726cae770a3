package images

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// Fixtures. Raster formats the standard library can write are encoded;
// the others are assembled byte by byte following their specifications.

func encoded(t *testing.T, enc func(io.Writer, image.Image) error, w, h int) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White})
	var buf bytes.Buffer
	if err := enc(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func le16(v int) []byte          { return binary.LittleEndian.AppendUint16(nil, uint16(v)) }
func le32(v int) []byte          { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func be32(v int) []byte          { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// riff wraps WebP chunks in a RIFF container.
func riff(chunks ...[]byte) []byte {
	body := cat(append([][]byte{[]byte("WEBP")}, chunks...)...)
	return cat([]byte("RIFF"), le32(len(body)), body)
}

// chunk is a RIFF chunk, padded to an even length.
func chunk(fourcc string, data []byte) []byte {
	c := cat([]byte(fourcc), le32(len(data)), data)
	if len(data)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

// webpLossless is a VP8L header: signature, then width-1 and height-1 in
// 14 bits each.
func webpLossless(w, h int) []byte {
	return riff(chunk("VP8L", cat([]byte{0x2f}, le32((w-1)|(h-1)<<14))))
}

// webpExtended is a VP8X header: flags, reserved, 24-bit width-1 and
// height-1.
func webpExtended(w, h int) []byte {
	data := cat([]byte{0, 0, 0, 0}, le32(w - 1)[:3], le32(h - 1)[:3])
	return riff(chunk("VP8X", data))
}

// bmp24 is a 24-bit uncompressed bitmap with a BITMAPINFOHEADER; a
// negative height means rows are stored top-down.
func bmp24(w, h int) []byte {
	rows := h
	if rows < 0 {
		rows = -rows
	}
	stride := (w*3 + 3) &^ 3
	pixels := make([]byte, stride*rows)
	info := cat(le32(40), le32(w), le32(h), le16(1), le16(24), le32(0), le32(len(pixels)), le32(2835), le32(2835), le32(0), le32(0))
	header := cat([]byte("BM"), le32(14+len(info)+len(pixels)), le32(0), le32(14+len(info)))
	return cat(header, info, pixels)
}

// ico is an icon (kind 1) or cursor (kind 2) directory with one entry per
// size; a size of 256 is stored as 0.
func ico(kind int, sizes ...[2]int) []byte {
	b := cat(le16(0), le16(kind), le16(len(sizes)))
	for _, s := range sizes {
		b = append(b, byte(s[0]%256), byte(s[1]%256), 0, 0)
		b = cat(b, le16(1), le16(32), le32(40), le32(6+16*len(sizes)))
	}
	return append(b, make([]byte, 40)...)
}

// box is an ISO media box; fullBox adds version and flags.
func box(typ string, payload ...[]byte) []byte {
	p := cat(payload...)
	return cat(be32(8+len(p)), []byte(typ), p)
}

func fullBox(typ string, payload ...[]byte) []byte {
	return box(typ, append([][]byte{{0, 0, 0, 0}}, payload...)...)
}

func ispe(w, h int) []byte { return fullBox("ispe", be32(w), be32(h)) }

// avif is an AVIF file: ftyp, a meta box holding the given ispe boxes in
// iprp/ipco, and an mdat box.
func avif(major string, compatible string, props ...[]byte) []byte {
	ftyp := box("ftyp", []byte(major), be32(0), []byte("mif1"), []byte(compatible))
	hdlr := fullBox("hdlr", be32(0), []byte("pict"), make([]byte, 13))
	meta := fullBox("meta", hdlr, box("iprp", box("ipco", props...), fullBox("ipma", be32(0))))
	return cat(ftyp, meta, box("mdat", make([]byte, 32)))
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestValidateFile(t *testing.T) {
	tests := []struct {
		name         string
		data         []byte
		mime         string
		wantW, wantH int
	}{
		{"a.png", encoded(t, png.Encode, 3, 2), "image/png", 3, 2},
		{"a.jpg", encoded(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) }, 5, 4), "image/jpeg", 5, 4},
		{"a.gif", encoded(t, func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) }, 7, 6), "image/gif", 7, 6},
		{"lossless.webp", webpLossless(300, 200), "image/webp", 300, 200},
		{"extended.webp", webpExtended(4000, 3000), "image/webp", 4000, 3000},
		{"a.bmp", bmp24(2, 3), "image/bmp", 2, 3},
		{"top-down.bmp", bmp24(4, -5), "image/bmp", 4, 5},
		{"a.ico", ico(1, [2]int{16, 16}, [2]int{256, 256}, [2]int{48, 48}), "image/x-icon", 256, 256},
		{"cursor.ico", ico(2, [2]int{32, 32}), "image/x-icon", 32, 32},
		{"a.avif", avif("avif", "miaf", ispe(640, 480), ispe(64, 48)), "image/avif", 640, 480},
		{"compatible-brand.avif", avif("mif1", "avif", ispe(10, 20)), "image/avif", 10, 20},
		{"no-ispe.avif", avif("avif", "miaf"), "image/avif", 0, 0},
		{"a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80px"/>`), "image/svg+xml", 120, 80},
		{"prolog.svg", []byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- made by hand -->\n" +
			"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n" +
			"<svg viewBox=\"0 0 24 16\"><rect/></svg>"), "image/svg+xml", 24, 16},
		{"UPPER.PNG", encoded(t, png.Encode, 1, 1), "image/png", 1, 1},
		{"jpeg-named.png", encoded(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) }, 9, 9), "image/jpeg", 9, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write(t, tt.name, tt.data)
			info, err := ValidateFile(path)
			if err != nil {
				t.Fatalf("ValidateFile: %v", err)
			}
			want := Info{Path: path, MimeType: tt.mime, Width: tt.wantW, Height: tt.wantH, Bytes: int64(len(tt.data))}
			if *info != want {
				t.Errorf("ValidateFile = %+v, want %+v", *info, want)
			}
		})
	}
}

func TestValidateFileErrors(t *testing.T) {
	const accepted = " Accepted: png, jpg, jpeg, gif, svg, webp, bmp, ico, avif. Use a file node for text files or a webpage node for URLs."
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(dir, "folder.png"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "empty.png"), nil, 0o644))
	must(os.WriteFile(filepath.Join(dir, "passwd"), []byte("root:x:0:0"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "notes.png"), []byte("just text, renamed"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "letters.bmp"), []byte("BMW and other cars are listed here."), 0o644))
	must(os.WriteFile(filepath.Join(dir, "page.svg"), []byte("<html><svg></svg></html>"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "trailing."), []byte("x"), 0o644))

	tests := []struct{ name, want string }{
		{"missing.png", `Invalid image node: "missing.png" does not exist.`},
		{"folder.png", `Invalid image node: "folder.png" is not a file.`},
		{"empty.png", `Invalid image node: "empty.png" is empty.`},
		{"passwd", `Invalid image node: "passwd" has no extension.` + accepted},
		{"trailing.", `Invalid image node: "trailing." has no extension.` + accepted},
		{"notes.txt", `Invalid image node: "notes.txt" has unsupported extension ".txt".` + accepted},
		{"notes.png", `Invalid image node: "notes.png" is not a recognized image file. Expected PNG, JPEG, GIF, SVG, WebP, BMP, ICO, or AVIF image bytes.`},
		{"letters.bmp", `Invalid image node: "letters.bmp" is not a recognized image file. Expected PNG, JPEG, GIF, SVG, WebP, BMP, ICO, or AVIF image bytes.`},
		{"page.svg", `Invalid image node: "page.svg" is not a recognized image file. Expected PNG, JPEG, GIF, SVG, WebP, BMP, ICO, or AVIF image bytes.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := ValidateFile(filepath.Join(dir, tt.name))
			if err == nil {
				t.Fatalf("ValidateFile succeeded with %+v, want error %q", info, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error =\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	png1 := encoded(t, png.Encode, 1, 1)
	tests := []struct {
		name string
		head []byte
		want string // "" for not an image
	}{
		{"png", png1, "image/png"},
		{"png signature only", png1[:8], "image/png"},
		{"png signature cut", png1[:7], ""},
		{"jpeg", []byte{0xFF, 0xD8, 0xFF, 0xE0}, "image/jpeg"},
		{"jpeg too short", []byte{0xFF, 0xD8}, ""},
		{"gif87a", []byte("GIF87a\x01\x00"), "image/gif"},
		{"gif89a", []byte("GIF89a\x01\x00"), "image/gif"},
		{"gif other version", []byte("GIF90a"), ""},
		{"webp", webpLossless(1, 1), "image/webp"},
		{"riff not webp", []byte("RIFF\x04\x00\x00\x00WAVE"), ""},
		{"bmp", bmp24(1, 1), "image/bmp"},
		{"BM text", []byte("BMW is a car maker, and this is text."), ""},
		{"ico", ico(1, [2]int{16, 16}), "image/x-icon"},
		{"cur", ico(2, [2]int{16, 16}), "image/x-icon"},
		{"avif", avif("avif", "miaf"), "image/avif"},
		{"avis", avif("avis", "msf1"), "image/avif"},
		{"avif compatible brand", avif("mif1", "avif"), "image/avif"},
		{"heic", avif("heic", "mif1"), ""},
		{"avif only as minor version", box("ftyp", []byte("mp41"), []byte("avif"), []byte("isom")), ""},
		{"mp4", box("ftyp", []byte("isom"), be32(0), []byte("mp41")), ""},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), "image/svg+xml"},
		{"svg bare", []byte(`<svg>`), "image/svg+xml"},
		{"svg cut after name", []byte(`<svg`), "image/svg+xml"},
		{"svg after whitespace", []byte("\n\t  <svg width='1'/>"), "image/svg+xml"},
		{"svg after xml declaration", []byte(`<?xml version="1.0"?><svg/>`), "image/svg+xml"},
		{"svg after BOM and comment", []byte("\xEF\xBB\xBF<!-- <html> -->\n<svg/>"), "image/svg+xml"},
		{"svg after doctype with subset", []byte(`<!DOCTYPE svg [ <!ENTITY a "<b>"> ]><svg/>`), "image/svg+xml"},
		{"svg after lowercase doctype", []byte(`<!doctype svg><svg/>`), "image/svg+xml"},
		{"svgfoo element", []byte(`<svgfoo/>`), ""},
		{"html holding svg", []byte(`<html><svg/></html>`), ""},
		{"unclosed comment", []byte(`<!-- <svg/>`), ""},
		{"svg past 512 bytes", append([]byte("<!--"+strings.Repeat("x", 510)+"-->"), "<svg/>"...), ""},
		{"text", []byte("hello"), ""},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mime, ok := Sniff(tt.head)
			if mime != tt.want || ok != (tt.want != "") {
				t.Errorf("Sniff = %q, %v; want %q, %v", mime, ok, tt.want, tt.want != "")
			}
		})
	}
}

func TestSVGSize(t *testing.T) {
	tests := []struct {
		svg  string
		w, h int
	}{
		{`<svg width="120" height="80"/>`, 120, 80},
		{`<svg width="120px" height=" 80px "/>`, 120, 80},
		{`<svg width="10.6" height="0.2"/>`, 11, 1},
		{`<svg viewBox="0 0 300 150"/>`, 300, 150},
		{`<svg viewBox="-5,-5,30,20"/>`, 30, 20},
		{`<svg width="100%" height="100%" viewBox="0 0 64 32"/>`, 64, 32},
		{`<svg width="200" viewBox="0 0 100 50"/>`, 200, 100},
		{`<svg height="10" viewBox="0 0 100 50"/>`, 20, 10},
		{`<svg width="2em" height="1em"/>`, 0, 0},
		{`<svg width="-1" height="5"/>`, 0, 0},
		{`<svg width="NaN" height="Inf"/>`, 0, 0},
		{`<svg width="1e30" height="1"/>`, 0, 0},
		{`<svg viewBox="0 0 0 10"/>`, 0, 0},
		{`<svg viewBox="0 0 10"/>`, 0, 0},
		{`<svg/>`, 0, 0},
		{`<?xml version="1.0" encoding="ISO-8859-1"?><svg width="3" height="4"/>`, 3, 4},
		{`<!-- c --><!DOCTYPE svg><svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="5" height="6"/>`, 5, 6},
		{`<html width="1" height="1"/>`, 0, 0},
		{`<svg width="1" height=`, 0, 0},
	}
	for _, tt := range tests {
		if w, h := svgSize(strings.NewReader(tt.svg)); w != tt.w || h != tt.h {
			t.Errorf("svgSize(%s) = %d×%d, want %d×%d", tt.svg, w, h, tt.w, tt.h)
		}
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestDimensionsReadBounded checks that describing a large file reads only
// its header: a PNG followed by 32 MB, and an SVG whose root element runs
// past the 1 MB that is read of it.
func TestDimensionsReadBounded(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		w, h    int
		maxRead int64
	}{
		{"png", cat(encoded(t, png.Encode, 3, 2), make([]byte, 32<<20)), 3, 2, 64 << 10},
		{"svg", []byte(`<svg a="` + strings.Repeat("x", 4<<20) + `" width="1" height="1"/>`), 0, 0, maxSVGRead + 64<<10},
		{"avif", cat(avif("avif", "miaf", ispe(8, 8)), make([]byte, 32<<20)), 8, 8, 64 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := tt.data[:sniffLen]
			mime, ok := Sniff(head)
			if !ok {
				t.Fatal("fixture not sniffed as an image")
			}
			cr := &countingReaderAt{r: bytes.NewReader(tt.data)}
			w, h := dimensions(mime, head, io.NewSectionReader(cr, 0, int64(len(tt.data))))
			if w != tt.w || h != tt.h {
				t.Errorf("dimensions = %d×%d, want %d×%d", w, h, tt.w, tt.h)
			}
			if n := cr.n.Load(); n > tt.maxRead {
				t.Errorf("read %d bytes, want at most %d", n, tt.maxRead)
			}
		})
	}
}

func TestParseDataURL(t *testing.T) {
	const accepted = `). Accepted: png, jpeg, gif, svg+xml, webp, bmp, avif, x-icon.`
	tests := []struct {
		in       string
		mime     string
		errorMsg string
	}{
		{in: "data:image/png;base64,iVBORw0KGgo=", mime: "image/png"},
		{in: "data:image/svg+xml,%3Csvg%3E", mime: "image/svg+xml"},
		{in: "DATA:Image/JPEG;base64,/9j/", mime: "image/jpeg"},
		{in: "data:image/x-icon;charset=binary;base64,AAAB", mime: "image/x-icon"},
		{in: "data:text/html,<script>alert(1)</script>",
			errorMsg: `Invalid image node: data URI must be an image/* media type (got "data:text/html,<script>alert(1)</script>"` + accepted},
		{in: "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
			errorMsg: `Invalid image node: data URI must be an image/* media type (got "data:application/octet-stream;base64,AAA"` + accepted},
		{in: "data:,hello", errorMsg: `Invalid image node: data URI must be an image/* media type (got "data:,hello"` + accepted},
		{in: "data:image/,x", errorMsg: `Invalid image node: data URI must be an image/* media type (got "data:image/,x"` + accepted},
		{in: "data:imagex/png,x", errorMsg: `Invalid image node: data URI must be an image/* media type (got "data:imagex/png,x"` + accepted},
		{in: "https://example.com/a.png", errorMsg: `Invalid image node: data URI must be an image/* media type (got "https://example.com/a.png"` + accepted},
		{in: "data:image/png;base64", errorMsg: `Invalid image node: data URI has no "," before its data (got "data:image/png;base64").`},
		{in: "data:text/plain;é" + strings.Repeat("é", 40),
			errorMsg: `Invalid image node: data URI must be an image/* media type (got "data:text/plain;é` + strings.Repeat("é", 23) + `"` + accepted},
	}
	for _, tt := range tests {
		mime, err := ParseDataURL(tt.in)
		switch {
		case tt.errorMsg != "":
			if err == nil || err.Error() != tt.errorMsg {
				t.Errorf("ParseDataURL(%q) = %q, %v;\nwant error %s", tt.in, mime, err, tt.errorMsg)
			}
		case err != nil || mime != tt.mime:
			t.Errorf("ParseDataURL(%q) = %q, %v; want %q", tt.in, mime, err, tt.mime)
		}
	}
}

// FuzzSniff checks Sniff, and the size parser of each type it finds.
func FuzzSniff(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg/>`))
	f.Fuzz(func(t *testing.T, head []byte) {
		mime, ok := Sniff(head)
		if ok != (mime != "") || (ok && !strings.HasPrefix(mime, "image/")) {
			t.Fatalf("Sniff = %q, %v", mime, ok)
		}
		if len(head) > sniffLen {
			if m2, ok2 := Sniff(head[:sniffLen]); m2 != mime || ok2 != ok {
				t.Fatalf("Sniff looked past %d bytes: %q on all, %q on the head", sniffLen, mime, m2)
			}
		}
		if !ok {
			return
		}
		// What is sniffed as an image is then parsed for its size.
		w, h := dimensions(mime, head[:min(len(head), sniffLen)], io.NewSectionReader(bytes.NewReader(head), 0, int64(len(head))))
		if w < 0 || h < 0 || w > maxDimension || h > maxDimension || (w == 0) != (h == 0) {
			t.Fatalf("dimensions(%s) = %d×%d", mime, w, h)
		}
	})
}

func FuzzSVGSize(f *testing.F) {
	f.Add(`<svg width="120" height="80"/>`)
	f.Add(`<svg width="200" viewBox="0 0 100 50"/>`)
	f.Fuzz(func(t *testing.T, svg string) {
		w, h := svgSize(strings.NewReader(svg))
		if w < 0 || h < 0 || w > maxDimension || h > maxDimension || (w == 0) != (h == 0) {
			t.Fatalf("svgSize = %d×%d", w, h)
		}
	})
}
