//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Scripts across workspace packages and several scripts at once (src/cli/commands/run-script.ts:
// runScripts, src/run/workspaces.ts): `rt --filter <pattern> <script>`, `rt run --workspaces
// <script>`, `rt run --parallel|--sequential <names...>`. The front plans the tasks as the Node
// CLI does and runs them itself (scheduler.go) when it is sure to behave the same. Every error
// the Node CLI reports (no package matched, a missing script, a dependency cycle, a workspace
// pattern matching nothing, a usage mistake), the live view on a terminal, any other flag and
// any glob it does not match exactly: the Node CLI.

// taskRequest is what readTaskRequest understood of the command line.
type taskRequest struct {
	filter                                                 []string
	workspaces, parallel, sequential, keepGoing, ifPresent bool
	target                                                 string
	args                                                   []string
}

// readTaskRequest reads rt's flags as src/flags/parse.ts does, for the workspace flags only: ok
// is false for any other flag, for a built-in command (but `run`), and when no flag selects
// packages or several scripts (then it is `rt run <script>`: readRequest).
func readTaskRequest(argv []string) (taskRequest, bool) {
	var r taskRequest
	command := false
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		switch {
		case arg == "--filter" || arg == "-F":
			if i+1 == len(argv) {
				return r, false
			}
			r.filter = append(r.filter, argv[i+1])
			i++
		case strings.HasPrefix(arg, "--filter="):
			r.filter = append(r.filter, arg[len("--filter="):])
		case arg == "--workspaces":
			r.workspaces = true
		case arg == "--parallel":
			r.parallel = true
		case arg == "--sequential":
			r.sequential = true
		case arg == "--no-exit-on-error":
			r.keepGoing = true
		case arg == "--if-present":
			r.ifPresent = true
		case strings.HasPrefix(arg, "-"):
			return r, false
		case arg == "run" && !command:
			command = true
		default:
			// With --filter/--workspaces a name is a script (`rt --filter '*' build`), never another command.
			if !command && len(r.filter) == 0 && !r.workspaces && isCommand(arg) {
				return r, false
			}
			r.target, r.args = arg, argv[i+1:]
			several := r.parallel || r.sequential
			return r, (len(r.filter) > 0 || r.workspaces || several) && !(r.parallel && r.sequential)
		}
	}
	return r, false
}

// workspace is the packages around the cwd (workspaces.ts: loadWorkspace).
type workspace struct {
	root     *manifest
	packages []*manifest
	declared bool
}

// taskPlan is a run the front can do as the Node CLI would.
type taskPlan struct {
	cwd   string
	tasks []*task
	// several: --parallel or --sequential (Foreman-style output, stop at the first failure).
	several bool
	request taskRequest
}

// task is one script of one package, with its lifecycle steps and the tasks it waits for.
type task struct {
	manifest     *manifest
	script       string
	label        string
	steps        []step
	dependencies []*task
}

// planTasks is runScripts up to the reporter's choice; ok is false wherever the Node CLI would
// say something else (an error) or the front cannot be sure it reads the same.
func planTasks(r taskRequest) (taskPlan, bool) {
	cwd, err := syscall.Getwd()
	if err != nil || readsMoreThanScripts(cwd) {
		return taskPlan{}, false
	}
	// Without a shell the Node CLI reports it while other tasks may run.
	if _, problem := shellInvocation(""); problem != "" {
		return taskPlan{}, false
	}
	several := r.parallel || r.sequential
	var ws workspace
	var selected []*manifest
	acrossPackages := len(r.filter) > 0 || r.workspaces
	if acrossPackages {
		var ok bool
		if ws, ok = loadWorkspace(cwd); !ok || (r.workspaces && !ws.declared) {
			return taskPlan{}, false
		}
		selected = ws.packages
		if len(r.filter) > 0 {
			if selected, ok = filterPackages(ws, r.filter, cwd); !ok {
				return taskPlan{}, false
			}
		}
	} else {
		found, ok := findManifest(cwd)
		if !ok || found == nil {
			return taskPlan{}, false
		}
		ws = workspace{root: found, packages: []*manifest{found}}
		selected = ws.packages
	}
	for _, m := range append([]*manifest{ws.root}, ws.packages...) {
		if !m.exactStrings {
			return taskPlan{}, false
		}
	}
	names := []string{r.target}
	args := r.args
	if several {
		names, args = append(names, r.args...), nil
	} else if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	var tasks []*task
	for _, m := range selected {
		for _, name := range names {
			scripts := scriptsMatching(m, name)
			if len(scripts) == 0 && !r.ifPresent && len(r.filter) == 0 {
				return taskPlan{}, false
			}
			for _, script := range scripts {
				label := script
				if acrossPackages {
					label = packageLabel(m, cwd) + ":" + script
				}
				steps := lifecycleSteps(m, script, args)
				if !fitsProcessArguments(m, script) || !fitsOneArgument(steps) {
					return taskPlan{}, false
				}
				tasks = append(tasks, &task{manifest: m, script: script, label: label, steps: steps})
			}
		}
	}
	if len(tasks) == 0 || !linkDependencies(ws, tasks) {
		return taskPlan{}, false
	}
	return taskPlan{cwd: cwd, tasks: tasks, several: several, request: r}, true
}

// fitsOneArgument: no command over Linux's limit for one argument, which the Node CLI reports
// (argumentTooLong) while other tasks run.
func fitsOneArgument(steps []step) bool {
	for _, s := range steps {
		if len(s.command) >= maxArgumentBytes {
			return false
		}
	}
	return true
}

// loadWorkspace: the nearest package.json that declares `workspaces` and lists the package at
// cwd among them (or is it), else the nearest package.json alone.
func loadWorkspace(cwd string) (workspace, bool) {
	nearest, ok := findManifest(cwd)
	if !ok || nearest == nil {
		return workspace{}, false
	}
	for dir := nearest.dir; ; dir = filepath.Dir(dir) {
		m := nearest
		if dir != nearest.dir {
			if m, ok = readManifest(dir); !ok {
				return workspace{}, false
			}
		}
		if m != nil && m.declaresWorkspaces {
			packages, ok := expandWorkspaces(m)
			if !ok {
				return workspace{}, false
			}
			if m == nearest || containsDir(packages, nearest.dir) {
				return workspace{root: m, packages: packages, declared: true}, true
			}
		}
		if filepath.Dir(dir) == dir {
			return workspace{root: nearest, packages: []*manifest{nearest}}, true
		}
	}
}

func containsDir(packages []*manifest, dir string) bool {
	for _, m := range packages {
		if m.dir == dir {
			return true
		}
	}
	return false
}

func expandWorkspaces(root *manifest) ([]*manifest, bool) {
	var includes, exclusions []string
	for _, pattern := range root.workspaces {
		pattern = strings.TrimSuffix(strings.TrimPrefix(strings.ReplaceAll(pattern, "\\", "/"), "./"), "/")
		if strings.HasPrefix(pattern, "!") {
			exclusions = append(exclusions, pattern[1:])
		} else {
			includes = append(includes, pattern)
		}
	}
	for _, pattern := range append(append([]string{}, includes...), exclusions...) {
		if !globSupported(pattern) {
			return nil, false
		}
	}
	dirs := map[string]bool{}
	for _, pattern := range includes {
		found, ok := packageDirs(root.dir, pattern)
		if !ok || len(found) == 0 {
			return nil, false
		}
		for _, dir := range found {
			excluded := false
			for _, exclusion := range exclusions {
				excluded = excluded || matchesGlob(dir, exclusion)
			}
			if !excluded {
				dirs[dir] = true
			}
		}
	}
	sorted := make([]string, 0, len(dirs))
	for dir := range dirs {
		// JavaScript sorts by UTF-16 code units: the same order as Go's bytes without 4-byte characters.
		if strings.IndexFunc(dir, func(r rune) bool { return r > 0xffff }) >= 0 {
			return nil, false
		}
		sorted = append(sorted, dir)
	}
	sort.Strings(sorted)
	packages := make([]*manifest, len(sorted))
	for i, dir := range sorted {
		m, ok := readManifest(filepath.Join(root.dir, dir))
		if !ok || m == nil {
			return nil, false
		}
		packages[i] = m
	}
	return packages, true
}

// packageDirs: directories under base (relative, with `/`) that match pattern and hold a
// package.json, walked from the pattern's literal prefix as deep as it reaches, node_modules and
// hidden directories skipped. ok is false for a name JavaScript would read differently.
func packageDirs(base, pattern string) ([]string, bool) {
	segments := strings.Split(pattern, "/")
	literal := -1
	for i, segment := range segments {
		if strings.ContainsAny(segment, "*?[{") {
			literal = i
			break
		}
	}
	start, depth := pattern, 0
	if literal >= 0 {
		start = strings.Join(segments[:literal], "/")
		depth = len(segments) - literal
		for _, segment := range segments {
			if segment == "**" {
				depth = -1 // no limit
			}
		}
	}
	oneLevel := literal == len(segments)-1 && segments[literal] == "*"
	var found []string
	ok := true
	var walk func(relative string, remaining int)
	walk = func(relative string, remaining int) {
		dir := filepath.Join(base, relative)
		matches := literal == -1 || (oneLevel && remaining == 0) || (!oneLevel && matchesGlob(relative, pattern))
		if relative != "" && matches {
			if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
				found = append(found, relative)
			}
		}
		if remaining == 0 {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, entry := range entries {
			name := entry.Name()
			if !entry.IsDir() || name == "node_modules" || strings.HasPrefix(name, ".") {
				continue
			}
			if !validUnicode([]byte(name)) {
				ok = false
				return
			}
			if relative != "" {
				name = relative + "/" + name
			}
			walk(name, remaining-1)
		}
	}
	walk(start, depth)
	return found, ok
}

// filterPackages: the packages --filter selects, names as globs, `./`-paths as globs on
// directories, `!pattern` excluding; ok is false when none is selected (the Node CLI's error).
func filterPackages(ws workspace, patterns []string, cwd string) ([]*manifest, bool) {
	var includes, excludes []string
	for _, pattern := range patterns {
		if strings.HasPrefix(pattern, "!") {
			excludes = append(excludes, pattern[1:])
		} else {
			includes = append(includes, pattern)
		}
	}
	type matcher func(m *manifest) bool
	compile := func(pattern string) (matcher, bool) {
		if dotsThenSeparator(pattern) {
			resolved := strings.ReplaceAll(pattern, "\\", "/")
			if !strings.HasPrefix(resolved, "/") {
				resolved = filepath.Join(cwd, resolved)
			}
			resolved = filepath.Clean(resolved)
			return func(m *manifest) bool { return matchesGlob(m.dir, resolved) }, globSupported(resolved)
		}
		return func(m *manifest) bool { return m.name != nil && nameGlob(*m.name, pattern) }, true
	}
	compileAll := func(list []string) ([]matcher, bool) {
		matchers := make([]matcher, len(list))
		for i, pattern := range list {
			var ok bool
			if matchers[i], ok = compile(pattern); !ok {
				return nil, false
			}
		}
		return matchers, true
	}
	included, ok1 := compileAll(includes)
	excluded, ok2 := compileAll(excludes)
	if !ok1 || !ok2 {
		return nil, false
	}
	any := func(matchers []matcher, m *manifest) bool {
		for _, match := range matchers {
			if match(m) {
				return true
			}
		}
		return false
	}
	var selected []*manifest
	for _, m := range ws.packages {
		if (len(included) == 0 || any(included, m)) && !any(excluded, m) {
			selected = append(selected, m)
		}
	}
	return selected, len(selected) > 0
}

// scriptsMatching: the script of that name, or with `*`/`?` the scripts matching it in package.json order.
func scriptsMatching(m *manifest, name string) []string {
	if !strings.ContainsAny(name, "*?") {
		if _, ok := m.scripts[name]; ok {
			return []string{name}
		}
		return nil
	}
	var found []string
	for _, script := range m.scriptOrder {
		if nameGlob(script, name) {
			found = append(found, script)
		}
	}
	return found
}

// packageLabel is src/run/manifest.ts's: the package's name, else its directory relative to the cwd.
func packageLabel(m *manifest, cwd string) string {
	if m.name != nil {
		return *m.name
	}
	relative, err := filepath.Rel(cwd, m.dir)
	if err != nil || relative == "." {
		return "."
	}
	return relative
}

// linkDependencies gives each task the nearest tasks of the same script among its package's
// workspace dependencies (through packages without it); false on a cycle (the Node CLI's error).
func linkDependencies(ws workspace, tasks []*task) bool {
	byName := map[string]*manifest{}
	for _, m := range ws.packages {
		if m.name != nil {
			byName[*m.name] = m
		}
	}
	type key struct{ dir, script string }
	// A script named twice (`--parallel a a`): the last task, as a Map built from the list keeps it.
	taskOf := map[key]*task{}
	for _, t := range tasks {
		taskOf[key{t.manifest.dir, t.script}] = t
	}
	for _, t := range tasks {
		seen := map[*manifest]bool{t.manifest: true}
		var visit func(m *manifest)
		visit = func(m *manifest) {
			for _, name := range m.dependsOn {
				dependency := byName[name]
				if dependency == nil || seen[dependency] {
					continue
				}
				seen[dependency] = true
				if found := taskOf[key{dependency.dir, t.script}]; found != nil {
					t.dependencies = append(t.dependencies, found)
				} else {
					visit(dependency)
				}
			}
		}
		visit(t.manifest)
	}
	return acyclic(tasks)
}

func acyclic(tasks []*task) bool {
	const visiting, done = 1, 2
	state := map[*task]int{}
	var visit func(t *task) bool
	visit = func(t *task) bool {
		switch state[t] {
		case done:
			return true
		case visiting:
			return false
		}
		state[t] = visiting
		for _, dependency := range t.dependencies {
			if !visit(dependency) {
				return false
			}
		}
		state[t] = done
		return true
	}
	for _, t := range tasks {
		if !visit(t) {
			return false
		}
	}
	return true
}

// dependencyOrder: dependencies first, otherwise in the given order (for --sequential).
func dependencyOrder(tasks []*task) []*task {
	var ordered []*task
	placed := map[*task]bool{}
	var place func(t *task)
	place = func(t *task) {
		if placed[t] {
			return
		}
		placed[t] = true
		for _, dependency := range t.dependencies {
			place(dependency)
		}
		ordered = append(ordered, t)
	}
	for _, t := range tasks {
		place(t)
	}
	return ordered
}
