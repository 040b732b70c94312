//go:build linux || darwin

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
)

// manifest is package.json as the script runner reads it (src/run/manifest.ts).
type manifest struct {
	dir, file     string
	name, version *string
	scripts       map[string]string
	// scriptOrder is the scripts in Object.entries order: array-index names ascending, then file order.
	scriptOrder []string
	// exactStrings: no string reads differently in Go than in JavaScript (see validUnicode).
	exactStrings bool
	// workspaces are the `workspaces` patterns; declaresWorkspaces: the field is there (even empty).
	workspaces         []string
	declaresWorkspaces bool
	// dependsOn: the names in the four dependency fields, in Object.keys order, repeats left out.
	dependsOn []string
}

// findManifest is the package.json nearest to dir, as the Node CLI finds it. ok is false when the
// Node CLI would report an error instead (unreadable, malformed, not an object, a bad
// "workspaces" field): it says that better, with file, line and column.
func findManifest(dir string) (*manifest, bool) {
	for current := dir; ; current = filepath.Dir(current) {
		found, ok := readManifest(current)
		if !ok || found != nil {
			return found, ok
		}
		if filepath.Dir(current) == current {
			return nil, true
		}
	}
}

// readManifest is dir/package.json (nil when there is none); ok as for findManifest.
func readManifest(dir string) (*manifest, bool) {
	file := filepath.Join(dir, "package.json")
	text, err := os.ReadFile(file)
	if err == nil {
		return parseManifest(file, text)
	}
	return nil, errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR)
}

func parseManifest(file string, text []byte) (*manifest, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(text, &fields) != nil || fields == nil {
		return nil, false
	}
	found := &manifest{dir: filepath.Dir(file), file: file, scripts: map[string]string{}, name: stringField(fields, "name"), version: stringField(fields, "version"), exactStrings: validUnicode(text)}
	if raw, present := fields["workspaces"]; present {
		patterns, ok := workspacePatterns(raw)
		if !ok {
			return nil, false
		}
		found.workspaces, found.declaresWorkspaces = patterns, true
	}
	seen := map[string]bool{}
	for _, field := range dependencyFields {
		names, _ := objectEntries(fields[field])
		for _, name := range names {
			if !seen[name] {
				seen[name] = true
				found.dependsOn = append(found.dependsOn, name)
			}
		}
	}
	// Not an object: no scripts; an entry that is not a string is left out.
	names, scripts := objectEntries(fields["scripts"])
	for _, name := range names {
		raw := scripts[name]
		var command string
		if raw[0] == '"' && json.Unmarshal(raw, &command) == nil {
			found.scripts[name] = command
			found.scriptOrder = append(found.scriptOrder, name)
		}
	}
	return found, true
}

// objectEntries reads a JSON object as JSON.parse and Object.entries see it: a repeated key keeps
// its first place and its last value; array-index keys come first, in ascending order.
func objectEntries(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	values := map[string]json.RawMessage{}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, values
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	if _, err := decoder.Token(); err != nil {
		return nil, values
	}
	var indexes, others []string
	for decoder.More() {
		token, err := decoder.Token()
		key, isKey := token.(string)
		var value json.RawMessage
		if err != nil || !isKey || decoder.Decode(&value) != nil {
			return nil, map[string]json.RawMessage{}
		}
		if _, seen := values[key]; !seen {
			if isArrayIndex(key) {
				indexes = append(indexes, key)
			} else {
				others = append(others, key)
			}
		}
		values[key] = value
	}
	sort.Slice(indexes, func(i, j int) bool {
		a, _ := strconv.ParseUint(indexes[i], 10, 32)
		b, _ := strconv.ParseUint(indexes[j], 10, 32)
		return a < b
	})
	return append(indexes, others...), values
}

// isArrayIndex: the canonical decimal form of an integer below 2^32 - 1.
func isArrayIndex(key string) bool {
	if key == "" || (len(key) > 1 && key[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	return err == nil && n < 1<<32-1 && strconv.FormatUint(n, 10) == key
}

func stringField(fields map[string]json.RawMessage, key string) *string {
	var value string
	raw, present := fields[key]
	if !present || raw[0] != '"' || json.Unmarshal(raw, &value) != nil {
		return nil
	}
	return &value
}

// dependencyFields are the fields whose packages a workspace task waits for (src/run/manifest.ts).
var dependencyFields = []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"}

// workspacePatterns reads an array of strings, or { "packages": [strings] }; ok is false for
// anything else, which the Node CLI reports.
func workspacePatterns(raw json.RawMessage) ([]string, bool) {
	var object map[string]json.RawMessage
	if raw[0] == '{' && json.Unmarshal(raw, &object) == nil {
		raw = object["packages"]
	}
	var entries []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &entries) != nil {
		return nil, false
	}
	patterns := make([]string, len(entries))
	for i, entry := range entries {
		if entry[0] != '"' || json.Unmarshal(entry, &patterns[i]) != nil {
			return nil, false
		}
	}
	return patterns, true
}
