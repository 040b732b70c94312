package main

import "os/exec"

// runNatively: never on Windows. The runner's Windows rules (cmd.exe, PATHEXT, no process groups:
// src/run/shell.ts) live in the Node CLI only, so every invocation goes to it.
func runNatively(args []string, launcher string) (int, bool) {
	return 0, false
}

// lookPath finds name on PATH with PATHEXT, as cmd.exe would (node.exe).
func lookPath(name, _ string) string {
	found, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return found
}

// handOverNode is node.exe on PATH: bin/rt.cjs starts rt's own Node from there when it is too old.
func handOverNode() string {
	node, _ := nodeCommand()
	return node
}
