package main

import (
	"syscall"
	"unsafe"
)

// ioctlReadTermios reads a terminal's settings: it fails on anything but a terminal.
const ioctlReadTermios = syscall.TIOCGETA

// osSignalNames are the signals only macOS has.
var osSignalNames = map[syscall.Signal]string{syscall.SIGEMT: "SIGEMT", syscall.SIGINFO: "SIGINFO"}

// restoreDefaultAction sets sig's disposition to SIG_DFL with sigaction(2) itself: the Go runtime
// keeps its own handler even after signal.Reset. An all-zero struct __sigaction (handler,
// trampoline, mask, flags: 24 bytes) is SIG_DFL with no flags and an empty mask.
func restoreDefaultAction(sig syscall.Signal) {
	var defaultAction [3]uint64
	syscall.RawSyscall(syscall.SYS_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&defaultAction)), 0)
}

// dupTo makes fd a copy of opened (dup2(2)).
func dupTo(opened, fd int) {
	syscall.Dup2(opened, fd)
}
