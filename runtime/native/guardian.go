//go:build linux

package main

import (
	"strconv"
	"strings"
	"syscall"
)

// A guardian ties the scripts' fate to rt's. They run in process groups of their own (see
// process.go), so a SIGKILL to rt's group (coreutils `timeout -s KILL`, a cancelled CI job,
// `kill -KILL -- -PGID`) or Ctrl-\ would end rt and leave them running. The guardian is /bin/sh in
// a session of its own, outside every group such a signal reaches, reading a pipe only rt writes:
// guardianProgram (src/run/rules.ts, as src/run/process.ts runs it).
type guardian struct {
	fd int
}

// startGuardian starts it; without one (no /bin/sh, no descriptors left) scripts still run.
func startGuardian() guardian {
	var fds [2]int
	if syscall.Pipe2(fds[:], syscall.O_CLOEXEC) != nil {
		return guardian{fd: -1}
	}
	devNull, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err == nil {
		// The root directory: it keeps no directory of the user's busy.
		attr := &syscall.ProcAttr{Dir: "/", Env: []string{}, Files: []uintptr{uintptr(fds[0]), uintptr(devNull), uintptr(devNull)}, Sys: &syscall.SysProcAttr{Setsid: true}}
		_, err = syscall.ForkExec("/bin/sh", []string{"/bin/sh", "-c", guardianProgram}, attr)
		syscall.Close(devNull)
	}
	syscall.Close(fds[0])
	if err != nil {
		syscall.Close(fds[1])
		return guardian{fd: -1}
	}
	return guardian{fd: fds[1]}
}

// watch makes groups the ones to kill if rt ends now.
func (g guardian) watch(groups ...int) {
	if g.fd < 0 {
		return
	}
	ids := make([]string, len(groups))
	for i, group := range groups {
		ids[i] = "-" + strconv.Itoa(group)
	}
	// One write under PIPE_BUF: the guardian never reads half a list.
	syscall.Write(g.fd, []byte(strings.Join(ids, " ")+"\n"))
}
