//go:build linux || darwin

package main

import (
	"os"
	"strings"
	"syscall"
	"unsafe"
)

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
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), ioctlReadTermios, uintptr(unsafe.Pointer(&termios)))
	return errno == 0
}

// writeStderr writes all of text; a reader that went away is no error (as the Node CLI).
func writeStderr(text string) {
	os.Stderr.WriteString(text)
}
