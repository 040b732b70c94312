//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// launch is a process to start; fallback is started instead when file cannot be (src/run/shell.ts).
type launch struct {
	file     string
	args     []string
	fallback func() (launch, string)
}

var safeWord = lazyRegexp(safeWordPattern)

// lazyRegexp compiles pattern on first use: a file run, which needs none, does not pay at start.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	var once sync.Once
	var compiled *regexp.Regexp
	return func() *regexp.Regexp {
		once.Do(func() { compiled = regexp.MustCompile(pattern) })
		return compiled
	}
}

// scriptInvocation is the process that runs a script's command: the program itself for a simple
// command (the shell would only exec it), else the system shell with -c. The error is the Node
// CLI's message when there is no shell.
func scriptInvocation(command string, env *environment) (launch, string) {
	if simple, ok := simpleCommand(command, env); ok {
		// The shell is looked up only if the program does not start.
		simple.fallback = func() (launch, string) { return shellInvocation(command) }
		return simple, ""
	}
	return shellInvocation(command)
}

// simpleCommand: plain words only, the first neither a shell name nor an assignment nor a path,
// and no environment that makes the shell run code first or trace.
func simpleCommand(command string, env *environment) (launch, bool) {
	words := splitBlanks(trimJS(command))
	name := words[0]
	for _, word := range words {
		if !safeWord().MatchString(word) {
			return launch{}, false
		}
	}
	if shellNames[name] || strings.ContainsAny(name, "=/") {
		return launch{}, false
	}
	if env.get("BASH_ENV") != "" || env.get("ENV") != "" || env.get("SHELLOPTS") != "" || env.get("BASHOPTS") != "" {
		return launch{}, false
	}
	for _, key := range env.keys {
		if strings.HasPrefix(key, "BASH_FUNC_") {
			return launch{}, false
		}
	}
	return launch{file: name, args: words[1:]}, true
}

var systemShell string

// shellInvocation: `<shell> -c <command>`, the shell being the first of bash, sh, zsh on rt's PATH.
func shellInvocation(command string) (launch, string) {
	if systemShell == "" {
		for _, name := range posixShells {
			if file := findExecutable(name, os.Getenv("PATH")); file != "" {
				systemShell = file
				break
			}
		}
	}
	if systemShell == "" {
		return launch{}, noShellMessage
	}
	return launch{file: systemShell, args: []string{"-c", command}}, ""
}

// findExecutable is src/run/target.ts's lookup: path.join(dir, name), a file with an execute bit.
func findExecutable(name, path string) string {
	if strings.ContainsAny(name, "/\\") {
		return ""
	}
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			continue
		}
		file := filepath.Join(dir, name)
		if info, err := os.Stat(file); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return file
		}
	}
	return ""
}

// appendArguments quotes each argument so the shell passes it through as one word (Python's shlex.quote rule).
func appendArguments(command string, args []string) string {
	if len(args) == 0 {
		return command
	}
	quoted := make([]string, len(args))
	for i, arg := range args {
		if safeWord().MatchString(arg) {
			quoted[i] = arg
		} else {
			quoted[i] = "'" + strings.ReplaceAll(arg, "'", `'"'"'`) + "'"
		}
	}
	return command + " " + strings.Join(quoted, " ")
}

// trimJS is String.prototype.trim: JavaScript's white space and line terminators, which differ
// from Go's unicode.IsSpace (U+0085 is not one, U+FEFF is).
func trimJS(text string) string {
	return strings.TrimFunc(text, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
			return true
		}
		return r >= 0x2000 && r <= 0x200a
	})
}

// splitBlanks is text.split(/[ \t]+/).
func splitBlanks(text string) []string {
	return blanks().Split(text, -1)
}

var blanks = lazyRegexp(`[ \t]+`)
