//go:build linux || darwin

package main

import (
	"os"
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
	pipe *os.File
}

// startGuardian starts it; without one (no /bin/sh, no descriptors left) scripts still run.
func startGuardian() guardian {
	devNull, err := os.OpenFile("/dev/null", os.O_RDWR, 0)
	if err != nil {
		return guardian{}
	}
	defer devNull.Close()
	// Close-on-exec both: no script inherits the writing end, which would outlive rt.
	r, w, err := os.Pipe()
	if err != nil {
		return guardian{}
	}
	defer r.Close()
	// The root directory: it keeps no directory of the user's busy.
	attr := &syscall.ProcAttr{Dir: "/", Env: []string{}, Files: []uintptr{r.Fd(), devNull.Fd(), devNull.Fd()}, Sys: &syscall.SysProcAttr{Setsid: true}}
	if _, err := syscall.ForkExec("/bin/sh", []string{"/bin/sh", "-c", guardianProgram}, attr); err != nil {
		w.Close()
		return guardian{}
	}
	return guardian{pipe: w}
}

// watch makes groups the ones to kill if rt ends now.
func (g guardian) watch(groups ...int) {
	if g.pipe == nil {
		return
	}
	ids := make([]string, len(groups))
	for i, group := range groups {
		ids[i] = "-" + strconv.Itoa(group)
	}
	// One write under PIPE_BUF: the guardian never reads half a list.
	g.pipe.Write([]byte(strings.Join(ids, " ") + "\n"))
}
