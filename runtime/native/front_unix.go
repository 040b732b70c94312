//go:build linux || darwin

package main

// runNatively lists the scripts or runs one without Node when it behaves exactly as the Node CLI
// would; ok is false for everything else. The Node CLI would refuse to start without a Node it
// supports: so does the front.
func runNatively(args []string, launcher string) (code int, ok bool) {
	if listed, ok := readListing(args); ok {
		if _, ok := findNode(); ok {
			return listScripts(listed), true
		}
	}
	if request, ok := readRequest(args); ok {
		if node, ok := findNode(); ok {
			return runScript(request, runContext{launcher: launcher, node: node}), true
		}
	}
	// Off a terminal, or with --parallel/--sequential: on a terminal, a single script across
	// packages gets the Node CLI's live view.
	if request, ok := readTaskRequest(args); ok {
		if plan, ok := planTasks(request); ok && (plan.several || !isTerminal(1)) {
			if node, ok := findNode(); ok {
				return runTasks(plan, runContext{launcher: launcher, node: node}), true
			}
		}
	}
	return 0, false
}
