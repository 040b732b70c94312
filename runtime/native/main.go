//go:build linux

// rt's compiled front. `rt run <script>` and `rt <script>` spend most of their time starting
// Node (issue 22): this program runs a package.json script itself, exactly as the Node CLI's
// runner (src/run/) does, lists the scripts for a plain `rt run` / `rt run --json`, and replaces
// itself with the Node CLI (exec: same process, no second one) for everything else, and whenever it is not sure it would behave the same. The rules
// both implement are tested by one table (test/fixtures/scripts/rules.json) against both.
//
// RT_NATIVE=0 sends every invocation to the Node CLI.
package main

import (
	"os"
	"path/filepath"
)

func main() {
	args := os.Args[1:]
	launcher := launcherPath()
	if os.Getenv("RT_NATIVE") != "0" {
		// The Node CLI would refuse to start without a Node it supports: so does the listing here.
		if listed, ok := readListing(args); ok {
			if _, ok := findNode(); ok {
				os.Exit(listScripts(listed))
			}
		}
		if request, ok := readRequest(args); ok {
			if node, ok := findNode(); ok {
				os.Exit(runScript(request, runContext{launcher: launcher, node: node}))
			}
		}
	}
	execNodeCLI(launcher, args)
}

// launcherPath is rt's Node launcher, bin/rt.cjs of the package this binary was built into
// (dist/rt): what the Node CLI sees as process.argv[1], and what npm_execpath names.
func launcherPath() string {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		fail(127, "rt: cannot locate its own executable: %v\n", err)
	}
	return filepath.Join(filepath.Dir(self), "..", "bin", "rt.cjs")
}
