//go:build linux || darwin

package main

import (
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// readListing: exactly `rt run` or `rt run --json`, in a directory where the front would run a
// script (readRequest), for a package.json it reads as the Node CLI does. Any other flag,
// workspaces, no package.json or a malformed one: the Node CLI (it reports errors with file:line:col).
func readListing(argv []string) (listing, bool) {
	if len(argv) == 0 || argv[0] != "run" || len(argv) > 2 || (len(argv) == 2 && argv[1] != "--json") {
		return listing{}, false
	}
	cwd, err := syscall.Getwd()
	if err != nil || readsMoreThanScripts(cwd) {
		return listing{}, false
	}
	found, ok := findManifest(cwd)
	if !ok || found == nil || !found.exactStrings {
		return listing{}, false
	}
	return listing{cwd: cwd, manifest: found, json: len(argv) == 2}, true
}

type listing struct {
	cwd      string
	manifest *manifest
	json     bool
}

// surrogateEscape: a \uD800–\uDFFF escape, which JavaScript keeps as a lone surrogate and Go
// replaces; such files (and ones that are not UTF-8) are listed by the Node CLI.
var surrogateEscape = lazyRegexp(`\\u[dD][89abcdefABCDEF]`)

// listScripts writes the listing of one package (src/run/listing.ts: scriptsText, scriptsJson).
func listScripts(l listing) int {
	prepareStdio()
	m := l.manifest
	var b strings.Builder
	if l.json {
		b.WriteString(scriptsJSON(m))
	} else {
		for _, name := range m.scriptOrder {
			b.WriteString("  $ rt run " + name + "\n    " + strings.ReplaceAll(m.scripts[name], "\n", "\n    ") + "\n\n")
		}
		count := len(m.scriptOrder)
		noun := "scripts"
		if count == 1 {
			noun = "script"
		}
		b.WriteString(strconv.Itoa(count) + " " + noun + " in " + displayPath(m, l.cwd) + "\n")
	}
	writeFully(1, b.String())
	return 0
}

// displayPath of the package.json (src/text.ts): relative to the cwd when under it, else absolute.
// It is the cwd's own or an ancestor's, so it is `package.json` or the absolute path.
func displayPath(m *manifest, cwd string) string {
	if m.dir == cwd {
		return "package.json"
	}
	return m.file
}

// scriptsJSON is JSON.stringify(listed, null, 2).
func scriptsJSON(m *manifest) string {
	if len(m.scriptOrder) == 0 {
		return "[]\n"
	}
	pkg := "null"
	if m.name != nil {
		pkg = jsonString(*m.name)
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, name := range m.scriptOrder {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  {\n    \"name\": " + jsonString(name) + ",\n    \"command\": " + jsonString(m.scripts[name]) +
			",\n    \"package\": " + pkg + ",\n    \"dir\": " + jsonString(m.dir) + "\n  }")
	}
	b.WriteString("\n]\n")
	return b.String()
}

// jsonString is JSON.stringify of a well-formed string: only ", \ and control characters escaped.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeFully writes all of text to fd (1 or 2) as src/run/output/write.ts does: a reader that
// went away ends the output quietly; a non-blocking descriptor is waited on.
func writeFully(fd int, text string) {
	data := []byte(text)
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EAGAIN {
			var writable syscall.FdSet
			writable.Bits[0] = 1 << uint(fd)
			syscall.Select(fd+1, nil, &writable, nil, nil)
			continue
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		data = data[n:]
	}
}

// validUnicode: the file's strings read the same in Go as in JavaScript.
func validUnicode(text []byte) bool {
	return utf8.Valid(text) && !surrogateEscape().Match(text)
}
