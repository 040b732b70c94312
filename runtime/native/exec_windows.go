package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
)

// startNodeCLI runs the Node CLI as a child (Windows has no exec) on rt's console and stdio, and
// exits with its exit code. Ctrl+C and Ctrl+Break reach every process on the console: the child
// handles them as Node does, and rt only waits for it. It returns only when the child cannot start.
func startNodeCLI(node string, argv []string) error {
	child := exec.Command(node, argv[1:]...)
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
	signal.Ignore(os.Interrupt)
	err := child.Run()
	var exited *exec.ExitError
	if errors.As(err, &exited) {
		os.Exit(exited.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}
