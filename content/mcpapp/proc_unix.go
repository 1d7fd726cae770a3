//go:build unix

package mcpapp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd as the leader of a new process group, so
// killGroup reaches whatever the server spawns too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup signals the process group led by pid: SIGKILL when kill is set,
// else SIGTERM. Errors (the group is already gone) are of no interest.
func killGroup(pid int, kill bool) {
	if pid <= 0 {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pid, sig)
}
