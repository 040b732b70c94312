//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// scriptRequest is `rt run <name> [args...]` or `rt <name> [args...]` for a script of the nearest
// package.json, in a directory where the Node CLI would read nothing else that changes the run.
type scriptRequest struct {
	cwd      string
	manifest *manifest
	name     string
	args     []string
}

// readRequest reads the command line the way the Node CLI's parser and resolveRunTarget do
// (src/flags/parse.ts, src/run/target.ts) and says whether this front runs it. Any flag before
// the name, a built-in command, a path, a file name or a name that is no script: the Node CLI.
func readRequest(argv []string) (scriptRequest, bool) {
	var request scriptRequest
	if len(argv) == 0 {
		return request, false
	}
	forced := argv[0] == "run"
	rest := argv
	if forced {
		rest = argv[1:]
	} else if isCommand(argv[0]) {
		return request, false
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return request, false
	}
	name := rest[0]
	if isPathLike(name) || (!forced && hasRunnableExtension(name)) {
		return request, false
	}
	cwd, err := syscall.Getwd()
	if err != nil || readsMoreThanScripts(cwd) {
		return request, false
	}
	found, ok := findManifest(cwd)
	if !ok || found == nil {
		return request, false
	}
	if _, isScript := found.scripts[name]; !isScript || !fitsProcessArguments(found, name) {
		return request, false
	}
	// `rt run build -- --prod` gives the script `--prod`, as npm does.
	args := rest[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	return scriptRequest{cwd: cwd, manifest: found, name: name, args: args}, true
}

func isCommand(word string) bool {
	for _, command := range cliCommands {
		if word == command {
			return true
		}
	}
	return false
}

// isPathLike: ./x, ../x, .\x, an absolute path (POSIX or Windows, as path.win32.isAbsolute reads it).
func isPathLike(target string) bool {
	if dotsThenSeparator(target) {
		return true
	}
	return len(target) >= 3 && target[1] == ':' && (target[2] == '/' || target[2] == '\\') && isLetter(target[0])
}

// dotsThenSeparator: text starts with /, \, ./, .\, ../ or ..\ (the RegExp ^\.{0,2}[/\\]).
func dotsThenSeparator(text string) bool {
	i := 0
	for i < 2 && i < len(text) && text[i] == '.' {
		i++
	}
	return i < len(text) && (text[i] == '/' || text[i] == '\\')
}

func isLetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// hasRunnableExtension: path.extname(target) is one of the extensions rt runs as a file.
func hasRunnableExtension(target string) bool {
	// path.extname reads the last segment, trailing slashes left out.
	trimmed := strings.TrimRight(target, "/")
	base := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	dot := strings.LastIndex(base, ".")
	// path.extname: no extension for a name that is only a leading dot (".ts").
	if dot <= 0 {
		return false
	}
	ext := base[dot:]
	for _, runnable := range runnableExtensions {
		if ext == runnable {
			return true
		}
	}
	return false
}

// readsMoreThanScripts: the Node CLI would read something here that can change the run, which
// this front does not read: rtfig.toml (settings), the env files it loads into the environment
// (with util.parseEnv, whose rules differ between Node versions: only the Node CLI knows the
// ones of the Node it runs on), or a --watch supervisor's report channel.
func readsMoreThanScripts(cwd string) bool {
	if os.Getenv("RT_WATCH_REPORT_FD") != "" {
		return true
	}
	if _, err := os.Stat(filepath.Join(cwd, "rtfig.toml")); err == nil {
		return true
	}
	nodeEnv := os.Getenv("NODE_ENV")
	if nodeEnv == "" {
		nodeEnv = "development"
	}
	files := []string{".env", ".env." + nodeEnv}
	if nodeEnv != "test" {
		files = append(files, ".env.local")
	}
	for _, name := range files {
		if info, err := os.Stat(filepath.Join(cwd, name)); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// fitsProcessArguments: no NUL in what becomes a command line or an environment variable (the
// steps' commands, the name and version). Node refuses to start such a process with an error of
// its own, which the Node CLI shows.
func fitsProcessArguments(m *manifest, name string) bool {
	values := []string{m.scripts["pre"+name], m.scripts[name], m.scripts["post"+name]}
	for _, field := range []*string{m.name, m.version} {
		if field != nil {
			values = append(values, *field)
		}
	}
	for _, value := range values {
		if strings.IndexByte(value, 0) >= 0 {
			return false
		}
	}
	return true
}
