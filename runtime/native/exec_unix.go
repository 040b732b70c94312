//go:build linux || darwin

package main

import (
	"os"
	"syscall"
)

// startNodeCLI replaces this process with the Node CLI: the process id, signals, stdio and exit
// code are the Node CLI's own, as when rt.cjs is started directly. It returns only on failure.
func startNodeCLI(node string, argv []string) error {
	return syscall.Exec(node, argv, os.Environ())
}
