// Package images checks that a file or data URL given for an image canvas
// node really is an image, and describes it: its media type, size in bytes
// and pixel dimensions.
//
// The type is decided by the file's leading bytes, not its name, so that a
// text file renamed to .png is refused before a browser is asked to show
// it. Validation reads only the start of a file (the header that holds the
// dimensions), never the whole of it, except for SVG, whose root element is
// read from at most the first megabyte.
package images

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/image/bmp"
	"golang.org/x/image/webp"
)

// AcceptedExtensions lists the file extensions, lower case and without the
// dot, that an image node accepts. It must not be modified.
var AcceptedExtensions = []string{"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "ico", "avif"}

// Info describes a validated image file.
type Info struct {
	Path     string `json:"path"`     // as given to ValidateFile
	MimeType string `json:"mimeType"` // from the file's bytes
	Width    int    `json:"width"`    // in pixels; 0 when unknown
	Height   int    `json:"height"`   // in pixels; 0 when unknown
	Bytes    int64  `json:"bytes"`
}

const (
	sniffLen = 512 // bytes that Sniff looks at

	// Bounds on what is read for dimensions.
	maxHeaderRead = 8 << 20 // raster formats; JPEG metadata can precede the frame header
	maxSVGRead    = 1 << 20
	maxAVIFMeta   = 1 << 20
	maxDimension  = 1 << 24 // larger claimed sizes are reported as unknown
)

// Sniff returns the image media type that the first bytes of a file show,
// looking at no more than its first 512 bytes. It recognises PNG, JPEG,
// GIF, WebP, BMP, ICO (and CUR), AVIF and SVG.
func Sniff(head []byte) (mime string, ok bool) {
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", true
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg", true
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif", true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp", true
	case isBMP(head):
		return "image/bmp", true
	case bytes.HasPrefix(head, []byte{0, 0, 1, 0}), bytes.HasPrefix(head, []byte{0, 0, 2, 0}):
		return "image/x-icon", true
	case isAVIF(head):
		return "image/avif", true
	case isSVG(head):
		return "image/svg+xml", true
	}
	return "", false
}

// isBMP reports a "BM" signature followed by a known DIB header size, which
// keeps text that happens to start with "BM" from passing as a bitmap.
func isBMP(head []byte) bool {
	if len(head) < 18 || string(head[:2]) != "BM" {
		return false
	}
	switch binary.LittleEndian.Uint32(head[14:18]) {
	case 12, 16, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// isAVIF reports an ISO media "ftyp" box whose major or compatible brands
// include avif (still image) or avis (image sequence).
func isAVIF(head []byte) bool {
	if len(head) < 12 || string(head[4:8]) != "ftyp" {
		return false
	}
	end := min(int(binary.BigEndian.Uint32(head[:4])), len(head))
	for i := 8; i+4 <= end; i += 4 {
		if i == 12 {
			continue // minor version, not a brand
		}
		if b := string(head[i : i+4]); b == "avif" || b == "avis" {
			return true
		}
	}
	return false
}

// isSVG reports text whose first element is <svg, after an optional byte
// order mark, XML declaration, comments, processing instructions, doctype
// and whitespace.
func isSVG(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	for {
		b = bytes.TrimLeft(b, " \t\r\n")
		var end []byte
		switch {
		case bytes.HasPrefix(b, []byte("<?")):
			end = []byte("?>")
		case bytes.HasPrefix(b, []byte("<!--")):
			end = []byte("-->")
		case len(b) >= 9 && strings.EqualFold(string(b[:9]), "<!DOCTYPE"):
			end = []byte(">")
			if i, j := bytes.IndexByte(b, '['), bytes.IndexByte(b, '>'); i >= 0 && (j < 0 || i < j) {
				end = []byte("]>") // an internal subset holds '>' of its own
			}
		default:
			rest, ok := bytes.CutPrefix(b, []byte("<svg"))
			return ok && (len(rest) == 0 || bytes.IndexByte([]byte(" \t\r\n>/"), rest[0]) >= 0)
		}
		i := bytes.Index(b, end)
		if i < 0 {
			return false
		}
		b = b[i+len(end):]
	}
}

// ValidateFile checks that path names a non-empty regular file with an
// accepted extension whose bytes are those of an image, and describes it.
// Its errors are meant for the agent or person who asked for the node.
func ValidateFile(path string) (*Info, error) {
	name := filepath.Base(path)
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("Invalid image node: %q does not exist.", name)
	case err != nil:
		return nil, fmt.Errorf("Invalid image node: %q cannot be read: %w", name, err)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("Invalid image node: %q is not a file.", name)
	case st.Size() == 0:
		return nil, fmt.Errorf("Invalid image node: %q is empty.", name)
	}
	ext := filepath.Ext(name)
	if ext == "" || ext == "." {
		return nil, fmt.Errorf("Invalid image node: %q has no extension. %s", name, acceptedHint)
	}
	if !slices.Contains(AcceptedExtensions, strings.ToLower(ext[1:])) {
		return nil, fmt.Errorf("Invalid image node: %q has unsupported extension %q. %s", name, ext, acceptedHint)
	}

	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("Invalid image node: %q cannot be read: %w", name, err)
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("Invalid image node: %q cannot be read: %w", name, err)
	}
	head = head[:n]
	mime, ok := Sniff(head)
	if !ok {
		return nil, fmt.Errorf("Invalid image node: %q is not a recognized image file. "+
			"Expected PNG, JPEG, GIF, SVG, WebP, BMP, ICO, or AVIF image bytes.", name)
	}
	info := &Info{Path: path, MimeType: mime, Bytes: st.Size()}
	info.Width, info.Height = dimensions(mime, head, io.NewSectionReader(f, 0, st.Size()))
	return info, nil
}

const acceptedHint = "Accepted: png, jpg, jpeg, gif, svg, webp, bmp, ico, avif. " +
	"Use a file node for text files or a webpage node for URLs."

// dimensions returns an image's size in pixels, or 0, 0 when its header
// cannot be read: the bytes were already accepted as an image, and a
// browser may still show what a header parser does not understand.
func dimensions(mime string, head []byte, r *io.SectionReader) (w, h int) {
	var decodeConfig func(io.Reader) (image.Config, error)
	switch mime {
	case "image/png":
		decodeConfig = png.DecodeConfig
	case "image/jpeg":
		decodeConfig = jpeg.DecodeConfig
	case "image/gif":
		decodeConfig = gif.DecodeConfig
	case "image/webp":
		decodeConfig = webp.DecodeConfig
	case "image/bmp":
		decodeConfig = bmp.DecodeConfig
	case "image/x-icon":
		return icoSize(head)
	case "image/svg+xml":
		return svgSize(io.LimitReader(r, maxSVGRead))
	case "image/avif":
		return avifSize(r)
	default:
		return 0, 0
	}
	cfg, err := decodeConfig(bufio.NewReader(io.LimitReader(r, maxHeaderRead)))
	if err != nil {
		return 0, 0
	}
	return bounded(cfg.Width, cfg.Height)
}

// bounded returns w, h, or 0, 0 unless both are in 1..maxDimension.
func bounded(w, h int) (int, int) {
	if w < 1 || h < 1 || w > maxDimension || h > maxDimension {
		return 0, 0
	}
	return w, h
}

// icoSize returns the size of the largest image in an ICO or CUR
// directory, considering the entries within head. In an entry, a width or
// height of 0 means 256.
func icoSize(head []byte) (w, h int) {
	if len(head) < 6 {
		return 0, 0
	}
	count := int(binary.LittleEndian.Uint16(head[4:6]))
	for i := 0; i < count && 6+16*(i+1) <= len(head); i++ {
		e := head[6+16*i:]
		ew, eh := int(e[0]), int(e[1])
		if ew == 0 {
			ew = 256
		}
		if eh == 0 {
			eh = 256
		}
		if ew*eh > w*h {
			w, h = ew, eh
		}
	}
	return w, h
}

// svgSize returns the size an SVG document declares on its root element:
// its width and height when given in pixels (or without unit), else its
// viewBox, scaled to a width or height that is given.
func svgSize(r io.Reader) (w, h int) {
	d := xml.NewDecoder(r)
	// Only ASCII attribute values matter here, and Sniff has already seen
	// ASCII markup, so any declared encoding is read as-is.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for {
		tok, err := d.RawToken()
		if err != nil {
			return 0, 0
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local != "svg" {
			return 0, 0
		}
		var width, height float64
		var viewBox []float64
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "width":
				width = svgLength(a.Value)
			case "height":
				height = svgLength(a.Value)
			case "viewBox":
				viewBox = svgViewBox(a.Value)
			}
		}
		if (width == 0 || height == 0) && viewBox != nil {
			vw, vh := viewBox[2], viewBox[3]
			switch {
			case width > 0:
				height = width * vh / vw
			case height > 0:
				width = height * vw / vh
			default:
				width, height = vw, vh
			}
		}
		return bounded(pixels(width), pixels(height))
	}
}

// svgLength parses a length in pixels ("120", "120px", "12.5"), returning
// 0 for other units, percentages and anything unparsable.
func svgLength(s string) float64 {
	s = strings.TrimSuffix(strings.TrimSpace(s), "px")
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// svgViewBox parses "min-x min-y width height" (separated by spaces and/or
// commas), returning nil unless width and height are positive.
func svgViewBox(s string) []float64 {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	if len(fields) != 4 {
		return nil
	}
	vb := make([]float64, 4)
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		vb[i] = v
	}
	if !(vb[2] > 0 && vb[3] > 0) {
		return nil
	}
	return vb
}

// pixels rounds a positive length to whole pixels, at least 1; it returns
// 0 for lengths that are not positive or too large to mean anything.
func pixels(v float64) int {
	if !(v > 0) || v > maxDimension {
		return 0
	}
	return max(1, int(math.Round(v)))
}

// avifSize returns the largest image spatial extent ("ispe") property in an
// AVIF file's meta box (meta → iprp → ipco → ispe), which for a plain or
// grid image is the size of the primary image. Only top-level box headers
// and the meta box, of at most maxAVIFMeta bytes, are read.
func avifSize(r *io.SectionReader) (w, h int) {
	var off int64
	for range 32 { // top-level boxes before meta: ftyp, maybe free or mdat
		var hdr [16]byte
		if n, _ := r.ReadAt(hdr[:], off); n < 8 {
			return 0, 0
		}
		size, hlen := int64(binary.BigEndian.Uint32(hdr[:4])), int64(8)
		switch size {
		case 0:
			size = r.Size() - off
		case 1:
			size, hlen = int64(binary.BigEndian.Uint64(hdr[8:16])), 16
		}
		if size < hlen || size > r.Size()-off {
			return 0, 0
		}
		if string(hdr[4:8]) == "meta" {
			if size-hlen > maxAVIFMeta {
				return 0, 0
			}
			meta := make([]byte, size-hlen)
			if _, err := r.ReadAt(meta, off+hlen); err != nil {
				return 0, 0
			}
			return ispeSize(meta)
		}
		off += size
	}
	return 0, 0
}

// ispeSize finds the ispe boxes in the payload of a meta box.
func ispeSize(meta []byte) (w, h int) {
	if len(meta) < 4 {
		return 0, 0
	}
	iprp := findBox(meta[4:], "iprp") // meta is a full box: 4 bytes of version and flags
	ipco := findBox(iprp, "ipco")
	for b := ipco; len(b) >= 8; {
		typ, payload, rest := nextBox(b)
		if typ == "ispe" && len(payload) >= 12 {
			ew := int(binary.BigEndian.Uint32(payload[4:8]))
			eh := int(binary.BigEndian.Uint32(payload[8:12]))
			if ew, eh = bounded(ew, eh); ew*eh > w*h {
				w, h = ew, eh
			}
		}
		b = rest
	}
	return w, h
}

// findBox returns the payload of the first box of type typ in b.
func findBox(b []byte, typ string) []byte {
	for len(b) >= 8 {
		t, payload, rest := nextBox(b)
		if t == typ {
			return payload
		}
		b = rest
	}
	return nil
}

// nextBox splits the first ISO media box off b, returning its type, its
// payload and what follows it. A box that does not fit ends the walk (an
// empty rest).
func nextBox(b []byte) (typ string, payload, rest []byte) {
	size, hlen := uint64(binary.BigEndian.Uint32(b[:4])), uint64(8)
	switch {
	case size == 0:
		size = uint64(len(b))
	case size == 1:
		if len(b) < 16 {
			return "", nil, nil
		}
		size, hlen = binary.BigEndian.Uint64(b[8:16]), 16
	}
	if size < hlen || size > uint64(len(b)) {
		return "", nil, nil
	}
	return string(b[4:8]), b[hlen:size], b[size:]
}

// ParseDataURL checks that a data URL names an image media type and
// returns that type, lower case. The type is the text after "data:" up to
// the first ";" or ","; it must be image/something.
func ParseDataURL(s string) (mime string, err error) {
	got := s
	if utf8.RuneCountInString(got) > 40 {
		got = string([]rune(got)[:40])
	}
	fail := fmt.Errorf(`Invalid image node: data URI must be an image/* media type (got "%s"). `+
		`Accepted: png, jpeg, gif, svg+xml, webp, bmp, avif, x-icon.`, got)
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return "", fail
	}
	rest := s[5:]
	mime, _, hasData := strings.Cut(rest, ",")
	mime, _, _ = strings.Cut(mime, ";")
	mime = strings.ToLower(strings.TrimSpace(mime))
	if sub, ok := strings.CutPrefix(mime, "image/"); !ok || sub == "" {
		return "", fail
	}
	if !hasData {
		return "", fmt.Errorf(`Invalid image node: data URI has no "," before its data (got "%s").`, got)
	}
	return mime, nil
}
