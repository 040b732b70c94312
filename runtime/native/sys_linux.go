package main

import (
	"syscall"
	"unsafe"
)

// ioctlReadTermios reads a terminal's settings: it fails on anything but a terminal.
const ioctlReadTermios = syscall.TCGETS

// osSignalNames are the signals only Linux has.
var osSignalNames = map[syscall.Signal]string{syscall.SIGSTKFLT: "SIGSTKFLT", syscall.SIGPWR: "SIGPWR"}

// restoreDefaultAction sets sig's disposition to SIG_DFL with rt_sigaction itself: the Go runtime
// keeps its own handler even after signal.Reset. An all-zero kernel sigaction is SIG_DFL with no
// flags and an empty mask on every architecture.
func restoreDefaultAction(sig syscall.Signal) {
	var defaultAction [4]uint64
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&defaultAction)), 0, 8, 0, 0)
}

// dupTo makes fd a copy of opened (dup2(2); Linux on arm64 has only dup3).
func dupTo(opened, fd int) {
	syscall.Dup3(opened, fd, 0)
}
