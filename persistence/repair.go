package persistence

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"time"
)

// repairTail handles a store file buntdb refuses to load: it keeps a copy of
// the whole file next to it (<file>.corrupt-<unix>) and truncates the file
// after the last complete command, so the server starts with every
// transaction before the damage. It returns the number of bytes kept.
func repairTail(path string, log *slog.Logger) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	good, scanErr := lastGoodOffset(f)
	_ = f.Close()
	if scanErr == nil {
		return 0, errors.New("file parses cleanly; the open error is not a damaged tail")
	}
	backup := fmt.Sprintf("%s.corrupt-%d", path, time.Now().Unix())
	if err := copyFile(path, backup); err != nil {
		return 0, fmt.Errorf("keep a copy before repair: %w", err)
	}
	log.Warn("kept a copy of the damaged store file", "copy", backup)
	if err := os.Truncate(path, good); err != nil {
		return 0, err
	}
	return good, nil
}

// lastGoodOffset scans the RESP command stream buntdb writes (arrays of bulk
// strings, NUL padding ignored) and returns the offset just past the last
// complete command, plus the error that stopped the scan (nil at clean EOF).
func lastGoodOffset(r io.Reader) (int64, error) {
	br := bufio.NewReader(r)
	var pos, good int64
	readLine := func() (string, error) {
		line, err := br.ReadString('\n')
		pos += int64(len(line))
		if err != nil {
			return "", err
		}
		if len(line) < 2 || line[len(line)-2] != '\r' {
			return "", errors.New("line without CRLF")
		}
		return line[:len(line)-2], nil
	}
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return good, nil
		}
		if err != nil {
			return good, err
		}
		pos++
		if c == 0 {
			good = pos
			continue
		}
		if c != '*' {
			return good, fmt.Errorf("unexpected byte %q at %d", c, pos-1)
		}
		head, err := readLine()
		if err != nil {
			return good, err
		}
		n, err := strconv.Atoi(head)
		if err != nil || n < 1 {
			return good, fmt.Errorf("bad array length %q", head)
		}
		for i := 0; i < n; i++ {
			c, err := br.ReadByte()
			if err != nil {
				return good, io.ErrUnexpectedEOF
			}
			pos++
			if c != '$' {
				return good, fmt.Errorf("expected bulk string at %d", pos-1)
			}
			lenLine, err := readLine()
			if err != nil {
				return good, err
			}
			size, err := strconv.Atoi(lenLine)
			if err != nil || size < 0 {
				return good, fmt.Errorf("bad bulk length %q", lenLine)
			}
			if _, err := io.CopyN(io.Discard, br, int64(size)); err != nil {
				return good, io.ErrUnexpectedEOF
			}
			crlf := make([]byte, 2)
			if _, err := io.ReadFull(br, crlf); err != nil {
				return good, io.ErrUnexpectedEOF
			}
			if string(crlf) != "\r\n" {
				return good, fmt.Errorf("bulk string without CRLF at %d", pos+int64(size))
			}
			pos += int64(size) + 2
		}
		good = pos
	}
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
