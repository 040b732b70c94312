// rt's compiled front. `rt run <script>` and `rt <script>` spend most of their time starting
// Node (issue 22): this program runs a package.json script itself, exactly as the Node CLI's
// runner (src/run/) does, runs scripts across workspace packages and several at once (--filter,
// --workspaces, --parallel, --sequential: issue 32), lists the scripts for a plain `rt run` /
// `rt run --json`, and replaces itself with the Node CLI (exec: same process, no second one) for
// everything else, and whenever it is not sure it would behave the same. The rules both
// implement are tested by one table (runtime/test/script-rules.json) against both.
//
// RT_NATIVE=0 sends every invocation to the Node CLI. On Windows every invocation goes to it
// (front_windows.go): the front there only saves the user a .cmd shim.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	args := os.Args[1:]
	launcher := launcherPath()
	if os.Getenv("RT_NATIVE") != "0" {
		if code, ok := runNatively(args, launcher); ok {
			os.Exit(code)
		}
	}
	execNodeCLI(launcher, args)
}

// launcherPath is rt's Node launcher, bin/rt.cjs of the package this binary runs from (dist/rt
// in the repository and the extension, bin/rt once installed from a platform package): what the
// Node CLI sees as process.argv[1], and what npm_execpath names.
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

// namedNode is RT_NODE, read once and removed from the environment: neither the Node CLI nor
// the scripts see it (an rt that a script starts finds its own Node).
var namedNode = func() string {
	node := os.Getenv("RT_NODE")
	os.Unsetenv("RT_NODE")
	return node
}()

// nodeCommand is the Node to run on, and whether a launcher named it.
func nodeCommand() (string, bool) {
	if namedNode != "" {
		return namedNode, true
	}
	return lookPath("node", os.Getenv("PATH")), false
}

// execNodeCLI hands the invocation to `node -- bin/rt.cjs args...` (startNodeCLI: exec where the
// system has it, else a child whose exit code becomes rt's).
func execNodeCLI(launcher string, args []string) {
	node := handOverNode()
	if node == "" {
		fail(127, "rt: node: not found on PATH (rt runs on Node.js >= 22.15)\n")
	}
	err := startNodeCLI(node, append([]string{"node", "--", launcher}, args...))
	fail(126, "rt: cannot start %s: %v\n", node, err)
}

func fail(code int, format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format, args...)
	os.Exit(code)
}
