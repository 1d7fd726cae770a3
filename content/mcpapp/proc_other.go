//go:build !unix

package mcpapp

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no Unix process groups.
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills the process pid itself where there are no Unix process
// groups (and no SIGTERM); its children may outlive it.
func killGroup(pid int, kill bool) {
	if pid <= 0 {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
