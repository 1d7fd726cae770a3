package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process plumbing of the daemon (Unix: the store needs flock anyway).

// daemonDetach makes the child lead a new session and process group, so it
// outlives this process and its terminal, and so its whole group can be
// signalled at once.
func daemonDetach(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// daemonKillGroup stops a child that did not become healthy: SIGTERM to its
// process group, SIGKILL after 3 s; it returns once the child is reaped, so
// no orphan is left behind.
func daemonKillGroup(pid int, exited <-chan error) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
	}
	daemonKillRest(pid)
}

// daemonKillRest kills what a child that has exited left in its process group.
func daemonKillRest(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// daemonTerminate asks a daemon to shut down.
func daemonTerminate(pid int) error {
	err := syscall.Kill(pid, syscall.SIGTERM)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// daemonAlive reports whether pid is a running process. EPERM (someone
// else's process) counts as running; a zombie (exited, not yet reaped by
// its parent) does not.
func daemonAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		// "<pid> (<comm>) <state> ...": comm may hold spaces and parens.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return false
		}
	}
	return true
}

// daemonProcArgs returns a process's command line.
func daemonProcArgs(pid int) ([]string, error) {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil {
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) > 0 && args[0] != "" {
			return args, nil
		}
	}
	// No /proc (macOS, BSD): ask ps. Arguments with spaces split wrongly,
	// which only makes the identity check stricter.
	out, err := exec.Command("ps", "-o", "args=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return nil, err
	}
	args := strings.Fields(string(out))
	if len(args) == 0 {
		return nil, errors.New("no command line")
	}
	return args, nil
}

// daemonProcExe returns the executable of a process, "" when unknown.
func daemonProcExe(pid int) string {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(exe, " (deleted)")
}

// daemonIsOurs checks that pid is a pmx-canvas server of the target's
// workspace and port before anything signals it: the same program, the
// "serve" command, and no --workspace / --port that says otherwise (the
// daemon's child always carries both). It also returns the process's
// command line, for the error when it is not.
func daemonIsOurs(pid int, t *daemonTarget) (bool, string) {
	args, err := daemonProcArgs(pid)
	if err != nil {
		return false, "unknown (its command line cannot be read: " + err.Error() + ")"
	}
	desc := strings.Join(args, " ")
	if len(desc) > 200 {
		desc = desc[:200] + "..."
	}
	self, _ := os.Executable()
	exe := daemonProcExe(pid)
	sameProgram := false
	switch {
	case exe != "" && self != "" && daemonSameFile(exe, self):
		sameProgram = true
	case self != "" && filepath.Base(args[0]) == filepath.Base(self):
		sameProgram = true
	case exe != "" && self != "" && filepath.Base(exe) == filepath.Base(self):
		sameProgram = true
	}
	if !sameProgram {
		return false, desc
	}
	serve := false
	for _, a := range args[1:] {
		if a == "serve" {
			serve = true
		}
	}
	if !serve {
		return false, desc
	}
	if ws, ok := daemonFlagValue(args, "workspace"); ok {
		if !filepath.IsAbs(ws) {
			if cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); err == nil {
				ws = filepath.Join(cwd, ws)
			}
		}
		if !daemonSameDir(ws, t.workspace) {
			return false, desc
		}
	} else if cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); err == nil && !daemonSameDir(cwd, t.workspace) {
		return false, desc
	}
	if p, ok := daemonFlagValue(args, "port"); ok && p != strconv.Itoa(t.port) {
		return false, desc
	}
	return true, desc
}

// daemonFlagValue finds --name=value or --name value in a command line.
func daemonFlagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

func daemonSameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

// daemonLockStart serialises daemon starts for one pid file, so two concurrent
// "serve --daemon" cannot both spawn a server and take each other's health
// for their own: the second waits, then finds the first one running. The
// child does not inherit the lock.
//
// unlock removes the lock file, so no start (refused, failed or done)
// leaves one behind. That is race-free because a start that locked a file
// checks that it is still the file at the path (not one a finishing start
// just removed) and otherwise locks again; it also removes the
// .pmx-canvas directory when this start created it and left it empty.
func daemonLockStart(pidFile string, wait time.Duration) (unlock func(), err error) {
	dir := filepath.Dir(pidFile)
	_, statErr := os.Stat(dir)
	created := os.IsNotExist(statErr)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := pidFile + ".lock"
	deadline := time.Now().Add(wait)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			_ = f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, errors.New("another serve --daemon for " + pidFile + " is still starting")
			}
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			_ = f.Close() // removed by the start that held it: lock the new one
			continue
		}
		return func() {
			_ = os.Remove(path)
			_ = f.Close()
			if created {
				_ = os.Remove(dir) // only when empty
			}
		}, nil
	}
}
