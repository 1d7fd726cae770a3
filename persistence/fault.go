package persistence

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// FaultWriter wraps the log file to imitate a slow or failing disk: a
// write of at least Min bytes goes down in Chunk-sized write(2) calls with
// Delay between them, and may stop part way, either stalling (the process
// is expected to be killed) or failing. It exists for tests; the binary
// installs one only when PMX_FAULT_WRITE is set.
type FaultWriter struct {
	W     io.Writer
	Min   int
	Chunk int
	Delay time.Duration
	// StallAt, when in (0,1), stops a write after that fraction of its
	// bytes: OnStall runs (the default prints "pmx-fault: stalled after N
	// of M bytes" to stderr) and the write blocks forever.
	StallAt float64
	OnStall func(written, total int)
	// FailAt, when in (0,1), stops a write after that fraction of its
	// bytes with an error, as a full or failing disk would.
	FailAt float64
}

// Write implements io.Writer.
func (f *FaultWriter) Write(p []byte) (int, error) {
	if len(p) < f.Min || len(p) == 0 {
		return f.W.Write(p)
	}
	stop, stall := len(p), false
	if f.StallAt > 0 && f.StallAt < 1 {
		stop, stall = int(f.StallAt*float64(len(p))), true
	} else if f.FailAt > 0 && f.FailAt < 1 {
		stop = int(f.FailAt * float64(len(p)))
	}
	chunk := f.Chunk
	if chunk <= 0 {
		chunk = len(p)
	}
	done := 0
	for done < stop {
		end := min(done+chunk, stop)
		n, err := f.W.Write(p[done:end])
		done += n
		if err != nil {
			return done, err
		}
		if f.Delay > 0 && done < len(p) {
			time.Sleep(f.Delay)
		}
	}
	switch {
	case stall:
		if f.OnStall != nil {
			f.OnStall(done, len(p))
		} else {
			fmt.Fprintf(os.Stderr, "pmx-fault: stalled after %d of %d bytes\n", done, len(p))
		}
		select {}
	case done < len(p):
		return done, errors.New("injected write fault")
	}
	return done, nil
}

// faultFromEnv parses PMX_FAULT_WRITE ("min=65536,chunk=4096,delay=1ms,
// stall=0.5"), the test hook that makes the real binary's disk slow and
// lets a test kill it in the middle of a commit's write. Empty: no fault.
func faultFromEnv(spec string) (func(io.Writer) io.Writer, error) {
	if spec == "" {
		return nil, nil
	}
	var f FaultWriter
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		var err error
		switch k {
		case "min":
			f.Min, err = strconv.Atoi(v)
		case "chunk":
			f.Chunk, err = strconv.Atoi(v)
		case "delay":
			f.Delay, err = time.ParseDuration(v)
		case "stall":
			f.StallAt, err = strconv.ParseFloat(v, 64)
		case "fail":
			f.FailAt, err = strconv.ParseFloat(v, 64)
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			return nil, fmt.Errorf("PMX_FAULT_WRITE %q: %s: %v", spec, k, err)
		}
	}
	return func(w io.Writer) io.Writer { c := f; c.W = w; return &c }, nil
}
