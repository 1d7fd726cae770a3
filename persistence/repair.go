package persistence

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// logScan is what scanLog found in a log file.
type logScan struct {
	// Keep is the length of the file to keep: just past the last complete
	// commit marker, or, in a file without any marker (written before
	// markers existed), just past the last complete command.
	Keep int64
	// LastSeq is the sequence of the last complete marker (0 if none).
	LastSeq uint64
	// Markers and Commands count what was read up to the end or the damage.
	Markers, Commands int
	// Damage is set when the scan stopped at bytes that are not a command
	// (nil for a clean end or a command cut short by a crash).
	Damage error
}

// scanLog reads the RESP command stream of a log file (arrays of bulk
// strings, NUL padding ignored) and finds where its last complete commit
// ends. It only returns an error when reading fails.
func scanLog(r io.Reader) (logScan, error) {
	var out logScan
	cr := &cmdReader{br: bufio.NewReaderSize(r, 64<<10)}
	lastComplete := int64(0)
	for {
		marker, seq, err := cr.next()
		if err == io.EOF {
			break
		}
		if err == io.ErrUnexpectedEOF {
			break // a command cut short: the tail of an unfinished commit
		}
		var se *syntaxError
		if errors.As(err, &se) {
			out.Damage = err
			break
		}
		if err != nil {
			return out, err
		}
		out.Commands++
		lastComplete = cr.pos
		if marker {
			out.Markers++
			out.LastSeq = seq
			out.Keep = cr.pos
		}
	}
	if out.Markers == 0 {
		out.Keep = lastComplete
	}
	return out, nil
}

// lastGoodOffset returns the offset just past the last complete command,
// plus the error that stopped the scan (nil at clean EOF).
func lastGoodOffset(r io.Reader) (int64, error) {
	cr := &cmdReader{br: bufio.NewReader(r)}
	good := int64(0)
	for {
		_, _, err := cr.next()
		if err == io.EOF {
			return cr.pos, nil // NUL padding after the last command counts
		}
		if err != nil {
			return good, err
		}
		good = cr.pos
	}
}

type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return e.msg }

func badf(format string, args ...any) error { return &syntaxError{fmt.Sprintf(format, args...)} }

// cmdReader reads one RESP command at a time, keeping only what it needs
// to recognise a commit marker (set ~commit <seq>).
type cmdReader struct {
	br  *bufio.Reader
	pos int64
}

func (c *cmdReader) readLine() (string, error) {
	line, err := c.br.ReadString('\n')
	c.pos += int64(len(line))
	if err == io.EOF {
		return "", io.ErrUnexpectedEOF
	}
	if err != nil {
		return "", err
	}
	if len(line) < 2 || line[len(line)-2] != '\r' {
		return "", badf("line without CRLF at %d", c.pos)
	}
	return line[:len(line)-2], nil
}

// next reads one command. It returns io.EOF at a clean end (after any NUL
// padding), io.ErrUnexpectedEOF for a command cut short, a *syntaxError
// for bytes that are not a command, or a read error.
func (c *cmdReader) next() (marker bool, seq uint64, err error) {
	var b byte
	for {
		b, err = c.br.ReadByte()
		if err != nil {
			return false, 0, err // io.EOF: clean end
		}
		c.pos++
		if b != 0 {
			break
		}
	}
	if b != '*' {
		return false, 0, badf("unexpected byte %q at %d", b, c.pos-1)
	}
	head, err := c.readLine()
	if err != nil {
		return false, 0, err
	}
	n, aerr := strconv.Atoi(head)
	if aerr != nil || n < 1 {
		return false, 0, badf("bad array length %q", head)
	}
	var parts [3]string
	for i := 0; i < n; i++ {
		b, err := c.br.ReadByte()
		if err == io.EOF {
			return false, 0, io.ErrUnexpectedEOF
		}
		if err != nil {
			return false, 0, err
		}
		c.pos++
		if b != '$' {
			return false, 0, badf("expected bulk string at %d", c.pos-1)
		}
		lenLine, err := c.readLine()
		if err != nil {
			return false, 0, err
		}
		size, aerr := strconv.Atoi(lenLine)
		if aerr != nil || size < 0 {
			return false, 0, badf("bad bulk length %q", lenLine)
		}
		if i < 3 && size <= 64 {
			buf := make([]byte, size)
			if _, err := io.ReadFull(c.br, buf); err != nil {
				return false, 0, io.ErrUnexpectedEOF
			}
			parts[i] = string(buf)
		} else if _, err := io.CopyN(io.Discard, c.br, int64(size)); err != nil {
			return false, 0, io.ErrUnexpectedEOF
		}
		var crlf [2]byte
		if _, err := io.ReadFull(c.br, crlf[:]); err != nil {
			return false, 0, io.ErrUnexpectedEOF
		}
		if string(crlf[:]) != "\r\n" {
			return false, 0, badf("bulk string without CRLF at %d", c.pos+int64(size))
		}
		c.pos += int64(size) + 2
	}
	if n == 3 && (parts[0] == "set" || parts[0] == "SET") && parts[1] == CommitKey {
		if v, perr := strconv.ParseUint(parts[2], 10, 64); perr == nil {
			return true, v, nil
		}
	}
	return false, 0, nil
}

// appendCommand appends one RESP array of bulk strings, the log's format.
func appendCommand(buf []byte, parts ...string) []byte {
	buf = append(buf, '*')
	buf = strconv.AppendInt(buf, int64(len(parts)), 10)
	buf = append(buf, '\r', '\n')
	for _, p := range parts {
		buf = append(buf, '$')
		buf = strconv.AppendInt(buf, int64(len(p)), 10)
		buf = append(buf, '\r', '\n')
		buf = append(buf, p...)
		buf = append(buf, '\r', '\n')
	}
	return buf
}

// appendOp appends the command of one op. An expiring key carries its
// absolute expiry (buntdb's "ae"), so a restart does not extend it.
func appendOp(buf []byte, op Op, now time.Time) []byte {
	switch {
	case op.Value == nil:
		return appendCommand(buf, "del", op.Key)
	case op.TTL > 0:
		return appendCommand(buf, "set", op.Key, *op.Value, "ae", strconv.FormatInt(now.Add(op.TTL).Unix(), 10))
	default:
		return appendCommand(buf, "set", op.Key, *op.Value)
	}
}

// appendMarker appends the commit marker that closes commit seq.
func appendMarker(buf []byte, seq uint64) []byte {
	return appendCommand(buf, "set", CommitKey, strconv.FormatUint(seq, 10))
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
