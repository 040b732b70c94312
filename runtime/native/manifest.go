//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// manifest is package.json as the script runner reads it (src/run/manifest.ts).
type manifest struct {
	dir, file     string
	name, version *string
	scripts       map[string]string
}

// findManifest is the package.json nearest to dir, as the Node CLI finds it. ok is false when the
// Node CLI would report an error instead (unreadable, malformed, not an object, a bad
// "workspaces" field): it says that better, with file, line and column.
func findManifest(dir string) (*manifest, bool) {
	for current := dir; ; current = filepath.Dir(current) {
		file := filepath.Join(current, "package.json")
		text, err := os.ReadFile(file)
		if err == nil {
			return parseManifest(file, text)
		}
		if !errors.Is(err, syscall.ENOENT) && !errors.Is(err, syscall.ENOTDIR) {
			return nil, false
		}
		if filepath.Dir(current) == current {
			return nil, true
		}
	}
}

func parseManifest(file string, text []byte) (*manifest, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(text, &fields) != nil || fields == nil {
		return nil, false
	}
	if raw, present := fields["workspaces"]; present && !validWorkspaces(raw) {
		return nil, false
	}
	found := &manifest{dir: filepath.Dir(file), file: file, scripts: map[string]string{}, name: stringField(fields, "name"), version: stringField(fields, "version")}
	var scripts map[string]json.RawMessage
	// Not an object: no scripts; an entry that is not a string is left out.
	if json.Unmarshal(fields["scripts"], &scripts) == nil {
		for name, raw := range scripts {
			var command string
			if json.Unmarshal(raw, &command) == nil && raw[0] == '"' {
				found.scripts[name] = command
			}
		}
	}
	return found, true
}

func stringField(fields map[string]json.RawMessage, key string) *string {
	var value string
	raw, present := fields[key]
	if !present || raw[0] != '"' || json.Unmarshal(raw, &value) != nil {
		return nil
	}
	return &value
}

// validWorkspaces: an array of strings, or { "packages": [strings] }.
func validWorkspaces(raw json.RawMessage) bool {
	var object map[string]json.RawMessage
	if raw[0] == '{' && json.Unmarshal(raw, &object) == nil {
		raw = object["packages"]
	}
	var patterns []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &patterns) != nil {
		return false
	}
	for _, pattern := range patterns {
		if pattern[0] != '"' {
			return false
		}
	}
	return true
}
