//go:build linux || darwin

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

// findNode is the Node on PATH with its version. Its version costs a process start the first
// time, then comes from a small cache file keyed by the executable's path, size and mtime.
// ok is false without a Node of at least 22.15: the launcher then explains what is missing.
func findNode() (nodeInfo, bool) {
	found, named := nodeCommand()
	if found == "" {
		return nodeInfo{}, false
	}
	info, ok := nodeVersion(found, named)
	if !ok && !named {
		// Too old: the Node bin/rt.cjs fetched for itself on it, started directly rather than
		// through the old one (src/launcher/own-node.ts). No Node at all stays an error, as
		// bin/rt.cjs could not start either.
		if own, ok := ownNodeInfo(); ok {
			return own, true
		}
	}
	return info, ok
}

// handOverNode is the Node to start the Node CLI on: the one on PATH, or rt's own when that one
// is too old. One stat where rt never fetched a Node of its own: the hand-over stays as cheap.
func handOverNode() string {
	node, _ := nodeCommand()
	if node != "" && ownNode() != "" {
		if info, ok := findNode(); ok {
			return info.execPath
		}
	}
	return node
}

// ownNodeInfo is rt's own Node (ownNode) with its version, when there is one.
func ownNodeInfo() (nodeInfo, bool) {
	own := ownNode()
	if own == "" {
		return nodeInfo{}, false
	}
	return nodeVersion(own, true)
}

// ownNode is the Node bin/rt.cjs fetches into rt's cache root when the machine's is older than
// rt needs (src/launcher/node-version.ts: <root>/node/v<major>/node), or "". Only from a root of
// this user's alone (owned, not writable by others), as the launcher decides: it is run.
func ownNode() string {
	root := cacheRoot()
	if root == "" || !privateDirectory(root) {
		return ""
	}
	file := fmt.Sprintf("%s/node/v%d/node", root, ownNodeMajor)
	if info, err := os.Stat(file); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
		return file
	}
	return ""
}

// privateDirectory: dir is a directory of this user's that nobody else may write to, the rule
// src/transpile/cache.ts applies to rt's cache root.
func privateDirectory(dir string) bool {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() || info.Mode().Perm()&0o022 != 0 {
		return false
	}
	stat, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(stat.Uid) == os.Getuid()
}

// nodeVersion is found's real path and version (see findNode); ok when rt runs on it.
func nodeVersion(found string, named bool) (nodeInfo, bool) {
	execPath, err := filepath.EvalSymlinks(found)
	if err == nil {
		execPath, err = filepath.Abs(execPath)
	}
	var stat os.FileInfo
	if err == nil {
		stat, err = os.Stat(execPath)
	}
	if err != nil {
		return nodeInfo{}, false
	}
	modified := stat.ModTime()
	key := fmt.Sprintf("%s\t%d\t%d.%09d", execPath, stat.Size(), modified.Unix(), modified.Nanosecond())
	version := cachedVersion(key)
	if version == "" {
		// A version manager's shim (asdf's script, volta's binary) picks a Node per project: its
		// version cannot be cached by its path, and process.execPath is not its path.
		if !named && (filepath.Base(execPath) != "node" || !isExecutableFormat(execPath)) {
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

// isExecutableFormat: an ELF (Linux) or Mach-O (macOS, 64-bit or universal) binary, not a script.
func isExecutableFormat(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, 4)
	n, _ := f.Read(magic)
	switch string(magic[:n]) {
	case "\x7fELF", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe":
		return true
	}
	return false
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

// cacheRoot is rt's cache directory, computed as bin/rt.cjs computes it, or "".
func cacheRoot() string {
	home := os.Getenv("XDG_CACHE_HOME")
	if home == "" && os.Getenv("HOME") != "" {
		home = os.Getenv("HOME") + "/.cache"
	}
	if home == "" {
		return ""
	}
	return home + "/rt"
}

// versionCache is under rt's cache directory.
func versionCache() string {
	if root := cacheRoot(); root != "" {
		return root + "/native/node-versions"
	}
	return ""
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
