//go:build linux || darwin

package main

import (
	"strconv"
	"syscall"
)

type runContext struct {
	launcher string
	node     nodeInfo
}

// step is one of `pre<name>`, `<name>` (with the arguments appended), `post<name>` (src/run/lifecycle.ts).
type step struct {
	name, script, command string
}

func lifecycleSteps(m *manifest, name string, args []string) []step {
	var steps []step
	if pre, ok := m.scripts["pre"+name]; ok {
		steps = append(steps, step{"pre" + name, pre, pre})
	}
	main := m.scripts[name]
	steps = append(steps, step{name, main, appendArguments(main, args)})
	if post, ok := m.scripts["post"+name]; ok {
		steps = append(steps, step{"post" + name, post, post})
	}
	return steps
}

// runScript runs the steps in the foreground and returns rt's exit code (src/run/foreground.ts):
// `$ <command>` on stderr before each, the first failure's code (and a line saying so), 128 + n
// after rt itself received signal n.
func runScript(request scriptRequest, ctx runContext) int {
	prepareStdio()
	paint := painter(2)
	signals := forwardSignals()
	for _, s := range lifecycleSteps(request.manifest, request.name, request.args) {
		writeStderr(paint.reset + paint.apply("$", dim, magenta) + " " + paint.apply(s.command, dim, bold) + "\n")
		env := scriptEnvironment(request.manifest, request.cwd, s, ctx)
		launch, err := scriptInvocation(s.command, env)
		if err != "" {
			writeStderr("error: " + err + "\n")
			return 1
		}
		outcome, startErr := signals.run(launch, request.manifest.dir, env.list())
		if startErr != "" {
			writeStderr("error: " + startErr + "\n")
			return 1
		}
		if outcome.exitCode != 0 {
			how := "exited with code " + strconv.Itoa(outcome.exitCode)
			if outcome.signal != "" {
				how = "was killed by " + outcome.signal
			}
			writeStderr(paint.reset + paint.apply("error", red) + paint.apply(":", dim) + " script " + paint.apply(`"`+s.name+`"`, bold) + " " + how + paint.reset + "\n")
			return outcome.exitCode
		}
		if received := signals.received(); received != 0 {
			return 128 + int(received)
		}
	}
	return 0
}

// prepareStdio does to descriptors 0-2 what Node and libuv do for the Node CLI's scripts: a
// closed one is opened on /dev/null (Node, at start), and they are made blocking (libuv, in
// each child: programs that do not expect EAGAIN on stdout get none).
func prepareStdio() {
	for fd := 0; fd <= 2; fd++ {
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
		if errno == syscall.EBADF {
			mode := syscall.O_RDWR
			if fd == 0 {
				mode = syscall.O_RDONLY
			}
			if opened, err := syscall.Open("/dev/null", mode, 0); err == nil && opened != fd {
				dupTo(opened, fd)
				syscall.Close(opened)
			}
			continue
		}
		if errno == 0 && flags&syscall.O_NONBLOCK != 0 {
			syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, flags&^syscall.O_NONBLOCK)
		}
	}
}
