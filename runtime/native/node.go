//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// nodeInfo is the Node the Node CLI would run on: `node` on PATH, as bin/rt.cjs's
// `#!/usr/bin/env node` finds it, or the one a launcher names in RT_NODE (the VS Code extension's
// names VS Code's own). Scripts see its path and version in their environment.
type nodeInfo struct {
	execPath string // process.execPath: the real path of the executable
	version  string // process.version, e.g. v24.1.0
}

// execNodeCLI replaces this process with `node -- bin/rt.cjs args...`: the process id, signals,
// stdio and exit code are the Node CLI's own, as when rt.cjs is started directly.
func execNodeCLI(launcher string, args []string) {
	node, _ := nodeCommand()
	if node == "" {
		fail(127, "rt: node: not found on PATH (rt runs on Node.js >= 22.15)\n")
	}
	argv := append([]string{"node", "--", launcher}, args...)
	err := syscall.Exec(node, argv, os.Environ())
	fail(126, "rt: cannot start %s: %v\n", node, err)
}

// findNode is the Node on PATH with its version. Its version costs a process start the first
// time, then comes from a small cache file keyed by the executable's path, size and mtime.
// ok is false without a Node of at least 22.15: the launcher then explains what is missing.
func findNode() (nodeInfo, bool) {
	found, named := nodeCommand()
	if found == "" {
		return nodeInfo{}, false
	}
	execPath, err := filepath.EvalSymlinks(found)
	if err == nil {
		execPath, err = filepath.Abs(execPath)
	}
	var stat syscall.Stat_t
	if err != nil || syscall.Stat(execPath, &stat) != nil {
		return nodeInfo{}, false
	}
	key := fmt.Sprintf("%s\t%d\t%d.%09d", execPath, stat.Size, stat.Mtim.Sec, stat.Mtim.Nsec)
	version := cachedVersion(key)
	if version == "" {
		// A version manager's shim (asdf's script, volta's binary) picks a Node per project: its
		// version cannot be cached by its path, and process.execPath is not its path.
		if !named && (filepath.Base(execPath) != "node" || !isELF(execPath)) {
			return nodeInfo{}, false
		}
		output, err := exec.Command(execPath, "--version").Output()
		if err != nil {
			return nodeInfo{}, false
		}
		version = strings.TrimSpace(string(output))
		rememberVersion(key, version)
	}
	return nodeInfo{execPath: execPath, version: version}, supportedNode(version)
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

func isELF(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, 4)
	n, _ := f.Read(magic)
	return n == 4 && string(magic) == "\x7fELF"
}

// supportedNode: the versions bin/rt.cjs accepts (>= 22.15).
func supportedNode(version string) bool {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return err1 == nil && err2 == nil && (major > 22 || (major == 22 && minor >= 15))
}

// versionCache is under rt's cache directory, computed as bin/rt.cjs computes it.
func versionCache() string {
	home := os.Getenv("XDG_CACHE_HOME")
	if home == "" && os.Getenv("HOME") != "" {
		home = os.Getenv("HOME") + "/.cache"
	}
	if home == "" {
		return ""
	}
	return home + "/rt/native/node-versions"
}

func cachedVersion(key string) string {
	file := versionCache()
	if file == "" {
		return ""
	}
	text, _ := os.ReadFile(file)
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, key+"\t") {
			return line[len(key)+1:]
		}
	}
	return ""
}

// rememberVersion adds a line, written to a temporary file and renamed: concurrent rt processes
// never read half a file. The last few Nodes are kept.
func rememberVersion(key, version string) {
	file := versionCache()
	// Private, as bin/rt.cjs makes rt's cache directory (src/register/cache-root.ts). What is read
	// back is only a version: a wrong one makes the launcher refuse that Node, never runs code.
	if file == "" || os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	text, _ := os.ReadFile(file)
	lines := []string{key + "\t" + version}
	for _, line := range strings.Split(string(text), "\n") {
		if line != "" && len(lines) < 8 {
			lines = append(lines, line)
		}
	}
	temporary := fmt.Sprintf("%s.%d.tmp", file, os.Getpid())
	if os.WriteFile(temporary, []byte(strings.Join(lines, "\n")+"\n"), 0o600) == nil {
		if os.Rename(temporary, file) != nil {
			os.Remove(temporary)
		}
	}
}

// lookPath finds name as execvp(3) and env(1) would: the first executable file in a PATH
// directory, an empty entry meaning the working directory.
func lookPath(name, path string) string {
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			dir = "."
		}
		file := dir + "/" + name
		if info, err := os.Stat(file); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return file
		}
	}
	return ""
}

func fail(code int, format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format, args...)
	os.Exit(code)
}
