//go:build linux || darwin

package main

import (
	"runtime"
	"strings"
	"unicode/utf16"
)

// The globs of workspaces (src/run/workspaces.ts): path.matchesGlob for workspace patterns and
// --filter paths, and name globs (`*`, `?`) for --filter names and script names. Both match on
// UTF-16 code units, as JavaScript does. globSupported says which patterns this front matches
// exactly as minimatch does; for any other the Node CLI runs the invocation.

// globSupported: segments of literal characters, `*`, `?` and `**`; no classes, braces, extglobs,
// escapes or negation, no empty, `.` or `..` segments (minimatch rewrites those), and on macOS
// (where Node matches the magic segments case-insensitively) only ASCII in them.
func globSupported(pattern string) bool {
	if strings.ContainsAny(pattern, "[]{}()!+@\\") {
		return false
	}
	for i, segment := range strings.Split(pattern, "/") {
		if (segment == "" && i > 0) || segment == "." || segment == ".." {
			return false
		}
		if runtime.GOOS == "darwin" && strings.ContainsAny(segment, "*?") && !isASCII(segment) {
			return false
		}
	}
	return true
}

// matchesGlob is path.matchesGlob(file, pattern) for a pattern globSupported accepts: `*` and `?`
// stay within a segment, `**` spans segments (at least one when it ends the pattern), and no
// magic matches a segment that starts with a dot unless the pattern segment does.
func matchesGlob(file, pattern string) bool {
	return matchSegments(strings.Split(file, "/"), strings.Split(pattern, "/"))
}

func matchSegments(names, patterns []string) bool {
	if len(patterns) == 0 {
		return len(names) == 0
	}
	if patterns[0] == "**" {
		if len(patterns) == 1 {
			for _, name := range names {
				if hidden(name) {
					return false
				}
			}
			return len(names) > 0
		}
		for skip := 0; skip <= len(names); skip++ {
			if matchSegments(names[skip:], patterns[1:]) {
				return true
			}
			if skip < len(names) && hidden(names[skip]) {
				return false
			}
		}
		return false
	}
	return len(names) > 0 && matchSegment(names[0], patterns[0]) && matchSegments(names[1:], patterns[1:])
}

func hidden(name string) bool {
	return strings.HasPrefix(name, ".")
}

func matchSegment(name, pattern string) bool {
	if !strings.ContainsAny(pattern, "*?") {
		return name == pattern
	}
	if name == "." || name == ".." || (hidden(name) && !hidden(pattern)) {
		return false
	}
	if runtime.GOOS == "darwin" {
		name, pattern = asciiLower(name), asciiLower(pattern)
	}
	return wildcard(utf16.Encode([]rune(pattern)), utf16.Encode([]rune(name)), func(uint16) bool { return true })
}

// nameGlob is the RegExp of workspaces.ts's nameGlob: `*` any run of characters (`/` included),
// `?` one, the rest literal; like `.` in a RegExp, neither takes a line terminator.
func nameGlob(name, pattern string) bool {
	return wildcard(utf16.Encode([]rune(pattern)), utf16.Encode([]rune(name)), func(c uint16) bool {
		return c != '\n' && c != '\r' && c != 0x2028 && c != 0x2029
	})
}

// wildcard matches text against pattern's `*` and `?`, whose characters must satisfy takes.
func wildcard(pattern, text []uint16, takes func(uint16) bool) bool {
	p, t := 0, 0
	star, resume := -1, 0
	for t < len(text) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, resume = p, t
			p++
		case p < len(pattern) && (pattern[p] == text[t] && pattern[p] != '?' || pattern[p] == '?' && takes(text[t])):
			p++
			t++
		case star >= 0 && takes(text[resume]):
			resume++
			p, t = star+1, resume
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

func isASCII(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			return false
		}
	}
	return true
}

func asciiLower(text string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, text)
}
