//go:build linux || darwin

package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
)

// Each script step starts in a process group (and session) of its own; SIGINT, SIGTERM, SIGHUP
// and SIGWINCH that rt receives go to the whole group, rt waits for it and reports its status,
// 128 + n for a process killed by signal n (src/run/process.ts). When rt ends before the step,
// the guardian (guardian.go) kills the group. The other signals do to rt what they do to Node:
// SIGPIPE and SIGXFSZ are ignored (a reader that went away does not end rt), SIGUSR1 does not end
// it (Node would start its inspector), and SIGQUIT (Ctrl-\), SIGABRT, SIGSYS and SIGPROF take their
// default action, not the Go runtime's (a stack dump; for SIGPROF, nothing). SIGQUIT waits for
// the guardian to know of a step that has just started.
type forwarder struct {
	mu sync.Mutex
	// groups are the running steps' process groups (several with --parallel and workspaces).
	groups map[int]bool
	first  syscall.Signal
	// interrupted: the signal interrupt sent the running groups, which a step that starts after it gets too.
	interrupted syscall.Signal
	guard       guardian
}

type outcome struct {
	exitCode int
	signal   string
}

func forwardSignals() *forwarder {
	f := &forwarder{groups: map[int]bool{}, guard: startGuardian()}
	for _, sig := range []syscall.Signal{syscall.SIGABRT, syscall.SIGSYS, syscall.SIGPROF} {
		restoreDefaultAction(sig)
	}
	incoming := make(chan os.Signal, 8)
	signal.Notify(incoming, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGWINCH, syscall.SIGPIPE, syscall.SIGXFSZ, syscall.SIGUSR1, syscall.SIGQUIT)
	go func() {
		for s := range incoming {
			sig := s.(syscall.Signal)
			if sig == syscall.SIGPIPE || sig == syscall.SIGXFSZ || sig == syscall.SIGUSR1 {
				continue
			}
			f.mu.Lock()
			if sig == syscall.SIGQUIT {
				// The default action, but not between a step's start and the guardian's learning
				// of it (run holds the lock then). The lock stays held: nothing starts after this.
				restoreDefaultAction(sig)
				syscall.Kill(syscall.Getpid(), sig)
				return
			}
			if sig != syscall.SIGWINCH && f.first == 0 {
				f.first = sig
			}
			for group := range f.groups {
				syscall.Kill(-group, sig)
			}
			f.mu.Unlock()
		}
	}()
	return f
}

// received is the first terminating signal rt received.
func (f *forwarder) received() syscall.Signal {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first
}

// maxArgumentBytes is Linux's MAX_ARG_STRLEN: the most one exec argument may take, its NUL included.
const maxArgumentBytes = 128 * 1024

// argumentTooLong is why Linux would refuse l with a bare E2BIG: one argument too long (arguments
// after a script's name are quoted into its command); the Node CLI's message (src/run/process.ts).
func argumentTooLong(l launch) string {
	for i, arg := range l.args {
		if len(arg) >= maxArgumentBytes {
			return fmt.Sprintf("cannot start %s: argument %d is %d bytes once quoted, over Linux's limit of %d bytes for one argument: pass that much data in a file or on stdin", l.file, i+1, len(arg), maxArgumentBytes-1)
		}
	}
	return ""
}

// run starts l (or its fallback) in dir with rt's stdio and waits for it; the error is the Node CLI's message.
func (f *forwarder) run(l launch, dir string, env []string) (outcome, string) {
	pid, problem := f.begin(l, dir, env, []uintptr{0, 1, 2})
	if problem != "" {
		return outcome{}, problem
	}
	return f.wait(pid), ""
}

// begin starts l (or its fallback) in dir on the given descriptors 0-2, its group one of those
// that signals reach and the guardian kills; a terminating signal rt received before reaches it at once.
func (f *forwarder) begin(l launch, dir string, env []string, files []uintptr) (int, string) {
	if problem := argumentTooLong(l); problem != "" {
		return 0, problem
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	pid, problem := start(l, dir, env, files)
	if problem != "" {
		return 0, problem
	}
	f.groups[pid] = true
	f.watchGroups()
	if f.first != 0 {
		syscall.Kill(-pid, f.first)
	} else if f.interrupted != 0 {
		syscall.Kill(-pid, f.interrupted)
	}
	return pid, ""
}

// interrupt sends sig to every running group (--parallel, after a failure), and to the steps
// that start after it: the Node CLI starts each task's first step at once, so no task it has
// started misses the signal; here a task's goroutine may start its step a moment later.
func (f *forwarder) interrupt(sig syscall.Signal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.interrupted = sig
	for group := range f.groups {
		syscall.Kill(-group, sig)
	}
}

// wait waits for the step begun as pid and says how it ended.
func (f *forwarder) wait(pid int) outcome {
	var status syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &status, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	f.mu.Lock()
	delete(f.groups, pid)
	f.watchGroups()
	f.mu.Unlock()
	if status.Signaled() {
		name, known := signalNames[status.Signal()]
		if !known {
			// Node reports no signal and exit code 0 for one it has no name for (real-time signals).
			return outcome{}
		}
		return outcome{exitCode: 128 + int(status.Signal()), signal: name}
	}
	return outcome{exitCode: status.ExitStatus()}
}

// watchGroups tells the guardian the running groups; f.mu is held.
func (f *forwarder) watchGroups() {
	groups := make([]int, 0, len(f.groups))
	for group := range f.groups {
		groups = append(groups, group)
	}
	f.guard.watch(groups...)
}

// start spawns l, or its fallback when l does not start; the error is the Node CLI's message.
func start(l launch, dir string, env []string, files []uintptr) (int, string) {
	pid, err := spawn(l, dir, env, files)
	if err != nil && l.fallback != nil {
		fallback, problem := l.fallback()
		if problem != "" {
			return 0, problem
		}
		pid, err = spawn(fallback, dir, env, files)
		if err != nil {
			return 0, "cannot start " + l.file + ": spawn " + fallback.file + " " + errnoName(err)
		}
	} else if err != nil {
		return 0, "cannot start " + l.file + ": spawn " + l.file + " " + errnoName(err)
	}
	return pid, ""
}

// spawn starts l as libuv's uv_spawn does: execvp(3) semantics (a search of the child's PATH,
// a file without #! run by /bin/sh), in dir, in a new session, on the given descriptors 0-2.
func spawn(l launch, dir string, env []string, files []uintptr) (int, error) {
	attr := &syscall.ProcAttr{Dir: dir, Env: env, Files: files, Sys: &syscall.SysProcAttr{Setsid: true}}
	argv := append([]string{l.file}, l.args...)
	if strings.Contains(l.file, "/") {
		return execFile(l.file, argv, attr)
	}
	path := "/bin:/usr/bin"
	for _, entry := range env {
		if strings.HasPrefix(entry, "PATH=") {
			path = entry[len("PATH="):]
		}
	}
	var lastErr error = syscall.ENOENT
	deniedOnce := false
	for _, entry := range strings.Split(path, ":") {
		candidate := l.file
		if entry != "" {
			candidate = entry + "/" + l.file
		}
		where := candidate
		if !strings.HasPrefix(where, "/") {
			where = dir + "/" + candidate
		}
		// Skips the fork for a file that is not there (execve would say ENOENT or ENOTDIR).
		var stat syscall.Stat_t
		if err := syscall.Stat(where, &stat); err != nil {
			if err == syscall.ENOENT || err == syscall.ENOTDIR {
				continue
			}
		} else if stat.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			deniedOnce = true
			continue
		}
		pid, err := execFile(candidate, argv, attr)
		switch err {
		case nil:
			return pid, nil
		case syscall.EACCES:
			deniedOnce = true
		case syscall.ENOENT, syscall.ESTALE, syscall.ENOTDIR, syscall.ENODEV, syscall.ETIMEDOUT:
		default:
			return 0, err
		}
		lastErr = err
	}
	if deniedOnce {
		return 0, syscall.EACCES
	}
	return 0, lastErr
}

func execFile(file string, argv []string, attr *syscall.ProcAttr) (int, error) {
	pid, err := syscall.ForkExec(file, argv, attr)
	if err == syscall.ENOEXEC {
		return syscall.ForkExec("/bin/sh", append([]string{"/bin/sh", file}, argv[1:]...), attr)
	}
	return pid, err
}

func errnoName(err error) string {
	if errno, ok := err.(syscall.Errno); ok {
		if name, known := errnoNames[errno]; known {
			return name
		}
	}
	return err.Error()
}

var errnoNames = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.EACCES: "EACCES", syscall.ENOEXEC: "ENOEXEC", syscall.E2BIG: "E2BIG",
	syscall.ENOTDIR: "ENOTDIR", syscall.ELOOP: "ELOOP", syscall.ENAMETOOLONG: "ENAMETOOLONG", syscall.ENOMEM: "ENOMEM",
	syscall.EAGAIN: "EAGAIN", syscall.EPERM: "EPERM", syscall.ETXTBSY: "ETXTBSY", syscall.EISDIR: "EISDIR", syscall.EMFILE: "EMFILE",
}

// signalNames are Node's names (os.constants.signals) for the signals both systems have; the
// numbers differ between Linux and macOS, and each adds a few of its own (osSignalNames).
var signalNames = func() map[syscall.Signal]string {
	names := map[syscall.Signal]string{
		syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT", syscall.SIGILL: "SIGILL",
		syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
		syscall.SIGKILL: "SIGKILL", syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV", syscall.SIGUSR2: "SIGUSR2",
		syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM", syscall.SIGCHLD: "SIGCHLD",
		syscall.SIGCONT: "SIGCONT", syscall.SIGSTOP: "SIGSTOP", syscall.SIGTSTP: "SIGTSTP", syscall.SIGTTIN: "SIGTTIN",
		syscall.SIGTTOU: "SIGTTOU", syscall.SIGURG: "SIGURG", syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
		syscall.SIGVTALRM: "SIGVTALRM", syscall.SIGPROF: "SIGPROF", syscall.SIGWINCH: "SIGWINCH", syscall.SIGIO: "SIGIO",
		syscall.SIGSYS: "SIGSYS",
	}
	for sig, name := range osSignalNames {
		names[sig] = name
	}
	return names
}()
