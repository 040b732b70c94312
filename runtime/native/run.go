//go:build linux

package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
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
		env := scriptEnvironment(request, s, ctx)
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

// environment is the inherited environment in its order, with the script's variables set.
type environment struct {
	keys   []string
	values map[string]string
}

func inheritedEnvironment() *environment {
	env := &environment{values: map[string]string{}}
	for _, entry := range os.Environ() {
		eq := strings.IndexByte(entry, '=')
		if eq <= 0 {
			continue
		}
		env.set(entry[:eq], entry[eq+1:])
	}
	return env
}

func (env *environment) set(key, value string) {
	if _, present := env.values[key]; !present {
		env.keys = append(env.keys, key)
	}
	env.values[key] = value
}

func (env *environment) unset(key string) {
	if _, present := env.values[key]; !present {
		return
	}
	delete(env.values, key)
	for i, k := range env.keys {
		if k == key {
			env.keys = append(env.keys[:i], env.keys[i+1:]...)
			break
		}
	}
}

func (env *environment) get(key string) string {
	return env.values[key]
}

func (env *environment) list() []string {
	list := make([]string, 0, len(env.keys))
	for _, key := range env.keys {
		list = append(list, key+"="+env.values[key])
	}
	return list
}

// scriptEnvironment is what src/run/environment.ts gives a script: node_modules/.bin of the
// package and every ancestor first on PATH, INIT_CWD, npm's variables, and PWD naming the
// package's directory when it is not the working directory.
func scriptEnvironment(request scriptRequest, s step, ctx runContext) *environment {
	env := inheritedEnvironment()
	m := request.manifest
	var dirs []string
	for dir := m.dir; ; dir = parentDir(dir) {
		if strings.HasSuffix(dir, "/") {
			dirs = append(dirs, dir+"node_modules/.bin")
		} else {
			dirs = append(dirs, dir+"/node_modules/.bin")
		}
		if parentDir(dir) == dir {
			break
		}
	}
	if path := env.get("PATH"); path != "" {
		dirs = append(dirs, path)
	}
	env.set("PATH", strings.Join(dirs, ":"))
	env.set("INIT_CWD", request.cwd)
	env.set("npm_config_user_agent", "rt/"+rtVersion+" npm/? node/"+ctx.node.version+" "+runtime.GOOS+" "+nodeArch())
	env.set("npm_execpath", ctx.launcher)
	env.set("npm_node_execpath", ctx.node.execPath)
	env.set("npm_command", "run-script")
	env.set("npm_package_json", m.file)
	setOrUnset(env, "npm_package_name", m.name)
	setOrUnset(env, "npm_package_version", m.version)
	env.set("npm_lifecycle_event", s.name)
	env.set("npm_lifecycle_script", s.script)
	if m.dir != request.cwd {
		env.set("PWD", m.dir)
	}
	return env
}

func setOrUnset(env *environment, key string, value *string) {
	if value == nil {
		env.unset(key)
	} else {
		env.set(key, *value)
	}
}

// parentDir is path.dirname of an absolute, normalized path.
func parentDir(dir string) string {
	i := strings.LastIndexByte(dir, '/')
	if i <= 0 {
		return "/"
	}
	return dir[:i]
}

// nodeArch is process.arch for this machine.
func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "ppc64le":
		return "ppc64"
	}
	return runtime.GOARCH
}

const (
	bold    = "1"
	dim     = "2"
	red     = "31"
	magenta = "35"
)

// paint colours text on a terminal only, never with NO_COLOR, always with FORCE_COLOR (src/run/output/style.ts).
type paint struct {
	on    bool
	reset string
}

func painter(fd int) paint {
	var on bool
	if os.Getenv("NO_COLOR") != "" {
		on = false
	} else if force := os.Getenv("FORCE_COLOR"); force != "" {
		on = force != "0"
	} else {
		on = isTerminal(fd) && os.Getenv("TERM") != "dumb"
	}
	if on {
		return paint{on: true, reset: "\x1b[0m"}
	}
	return paint{}
}

func (p paint) apply(text string, codes ...string) string {
	if !p.on {
		return text
	}
	var b strings.Builder
	for _, code := range codes {
		b.WriteString("\x1b[" + code + "m")
	}
	b.WriteString(text)
	b.WriteString("\x1b[0m")
	return b.String()
}

func isTerminal(fd int) bool {
	var termios syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCGETS, uintptr(unsafe.Pointer(&termios)))
	return errno == 0
}

// writeStderr writes all of text; a reader that went away is no error (as the Node CLI).
func writeStderr(text string) {
	os.Stderr.WriteString(text)
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
				syscall.Dup2(opened, fd)
				syscall.Close(opened)
			}
			continue
		}
		if errno == 0 && flags&syscall.O_NONBLOCK != 0 {
			syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, flags&^syscall.O_NONBLOCK)
		}
	}
}
