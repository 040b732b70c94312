//go:build linux || darwin

package main

import (
	"os"
	"runtime"
	"strings"
)

// environment is the inherited environment in its order, with the script's variables set.
type environment struct {
	keys   []string
	values map[string]string
}

func inheritedEnvironment() *environment {
	env := &environment{values: map[string]string{}}
	for _, entry := range os.Environ() {
		eq := strings.IndexByte(entry, '=')
		if eq <= 0 {
			continue
		}
		env.set(entry[:eq], entry[eq+1:])
	}
	return env
}

func (env *environment) set(key, value string) {
	if _, present := env.values[key]; !present {
		env.keys = append(env.keys, key)
	}
	env.values[key] = value
}

func (env *environment) unset(key string) {
	if _, present := env.values[key]; !present {
		return
	}
	delete(env.values, key)
	for i, k := range env.keys {
		if k == key {
			env.keys = append(env.keys[:i], env.keys[i+1:]...)
			break
		}
	}
}

func (env *environment) get(key string) string {
	return env.values[key]
}

func (env *environment) list() []string {
	list := make([]string, 0, len(env.keys))
	for _, key := range env.keys {
		list = append(list, key+"="+env.values[key])
	}
	return list
}

// scriptEnvironment is what src/run/environment.ts gives a script: node_modules/.bin of the
// package and every ancestor first on PATH, INIT_CWD, npm's variables, and PWD naming the
// package's directory when it is not the working directory.
func scriptEnvironment(m *manifest, cwd string, s step, ctx runContext) *environment {
	env := inheritedEnvironment()
	var dirs []string
	for dir := m.dir; ; dir = parentDir(dir) {
		if strings.HasSuffix(dir, "/") {
			dirs = append(dirs, dir+"node_modules/.bin")
		} else {
			dirs = append(dirs, dir+"/node_modules/.bin")
		}
		if parentDir(dir) == dir {
			break
		}
	}
	if path := env.get("PATH"); path != "" {
		dirs = append(dirs, path)
	}
	env.set("PATH", strings.Join(dirs, ":"))
	env.set("INIT_CWD", cwd)
	env.set("npm_config_user_agent", "rt/"+rtVersion+" npm/? node/"+ctx.node.version+" "+runtime.GOOS+" "+nodeArch())
	env.set("npm_execpath", ctx.launcher)
	env.set("npm_node_execpath", ctx.node.execPath)
	env.set("npm_command", "run-script")
	env.set("npm_package_json", m.file)
	setOrUnset(env, "npm_package_name", m.name)
	setOrUnset(env, "npm_package_version", m.version)
	env.set("npm_lifecycle_event", s.name)
	env.set("npm_lifecycle_script", s.script)
	if m.dir != cwd {
		env.set("PWD", m.dir)
	}
	return env
}

func setOrUnset(env *environment, key string, value *string) {
	if value == nil {
		env.unset(key)
	} else {
		env.set(key, *value)
	}
}

// parentDir is path.dirname of an absolute, normalized path.
func parentDir(dir string) string {
	i := strings.LastIndexByte(dir, '/')
	if i <= 0 {
		return "/"
	}
	return dir[:i]
}

// nodeArch is process.arch for this machine.
func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "ppc64le":
		return "ppc64"
	}
	return runtime.GOARCH
}
