//go:build linux || darwin

package main

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

// runTasks runs the planned tasks as src/run/scheduler.ts does and returns rt's exit code, the
// first failure's: each task once the tasks it depends on have ended, all at once or (with
// --sequential) one at a time in dependency order; after a failure, with --parallel or
// --sequential, nothing new starts (and --parallel sends SIGINT to the running ones); after a
// signal to rt, nothing new starts. The scripts' output is read line by line, off a pipe each.
func runTasks(plan taskPlan, ctx runContext) int {
	prepareStdio()
	s := &scheduler{plan: plan, ctx: ctx, signals: forwardSignals(), report: prefixedReporter(plan.cwd)}
	s.stopOnFailure = plan.several && !plan.request.keepGoing
	if plan.several {
		s.report = foremanReporter(plan.tasks)
	}
	tasks := plan.tasks
	if plan.request.sequential {
		tasks = dependencyOrder(tasks)
	}
	type result struct {
		task     *task
		exitCode int
		broken   bool
	}
	results := make(chan result)
	started, ended := map[*task]bool{}, map[*task]bool{}
	running, broken, failure := 0, 0, 0
	for {
		if s.signals.received() == 0 && !(s.failed.Load() && s.stopOnFailure) {
			for _, t := range tasks {
				if plan.request.sequential && running+broken > 0 {
					break
				}
				if started[t] || !allEnded(t.dependencies, ended) {
					continue
				}
				started[t] = true
				running++
				go func(t *task) {
					exitCode, broke := s.runTask(t)
					results <- result{t, exitCode, broke}
				}(t)
			}
		}
		if running == 0 {
			// A step that did not start is the Node CLI's error, and its exit code 1.
			if broken > 0 {
				return 1
			}
			return failure
		}
		r := <-results
		running--
		if r.broken {
			// As in the Node CLI, its task never ends: the tasks that wait for it never start.
			broken++
			continue
		}
		ended[r.task] = true
		if r.exitCode != 0 && !s.failed.Load() {
			failure = r.exitCode
			s.failed.Store(true)
			if s.stopOnFailure && plan.request.parallel {
				s.signals.interrupt(syscall.SIGINT)
			}
		}
	}
}

type scheduler struct {
	plan    taskPlan
	ctx     runContext
	signals *forwarder
	report  func(t *task, s step) stepView
	// stopOnFailure: --parallel/--sequential without --no-exit-on-error.
	stopOnFailure bool
	failed        atomic.Bool
}

// stepView receives a step's output lines and how it ended.
type stepView struct {
	output func(line string, stdout bool)
	ended  func(o outcome, ms float64)
}

func allEnded(tasks []*task, ended map[*task]bool) bool {
	for _, t := range tasks {
		if !ended[t] {
			return false
		}
	}
	return true
}

// runTask runs a task's steps until one fails; broken: a step did not start (its error is written).
func (s *scheduler) runTask(t *task) (exitCode int, broken bool) {
	for _, st := range t.steps {
		view := s.report(t, st)
		env := scriptEnvironment(t.manifest, s.plan.cwd, st, s.ctx)
		l, problem := scriptInvocation(st.command, env)
		var o outcome
		var ms float64
		if problem == "" {
			o, ms, problem = runPiped(s.signals, l, t.manifest.dir, env.list(), view)
		}
		if problem != "" {
			writeOutput(2, "error: "+problem+"\n")
			return 0, true
		}
		view.ended(o, ms)
		if o.exitCode != 0 {
			return o.exitCode, false
		}
		if s.signals.received() != 0 || (s.failed.Load() && s.stopOnFailure && s.plan.request.parallel) {
			return 0, false
		}
	}
	return 0, false
}

// runPiped runs a step as Node's spawn with stdio ["ignore", "pipe", "pipe"] does (/dev/null and
// a socket pair each, as libuv makes them), hands its lines to view and returns once it exited
// and closed both (Node's "close"), with the milliseconds since it was started.
func runPiped(signals *forwarder, l launch, dir string, env []string, view stepView) (outcome, float64, string) {
	cannotStart := func(err error) (outcome, float64, string) {
		return outcome{}, 0, "cannot start " + l.file + ": spawn " + l.file + " " + errnoName(err)
	}
	stdin, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return cannotStart(err)
	}
	defer syscall.Close(stdin)
	var pairs [2][2]int
	// Close-on-exec before any other step starts (macOS has no SOCK_CLOEXEC): a script that
	// inherited another's end would keep that one's output open after it ended.
	syscall.ForkLock.RLock()
	for i := range pairs {
		if pairs[i], err = syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0); err != nil {
			syscall.ForkLock.RUnlock()
			for _, pair := range pairs[:i] {
				syscall.Close(pair[0])
				syscall.Close(pair[1])
			}
			return cannotStart(err)
		}
		for _, fd := range pairs[i] {
			syscall.CloseOnExec(fd)
		}
	}
	syscall.ForkLock.RUnlock()
	started := time.Now()
	pid, problem := signals.begin(l, dir, env, []uintptr{uintptr(stdin), uintptr(pairs[0][1]), uintptr(pairs[1][1])})
	var reading sync.WaitGroup
	for i, pair := range pairs {
		syscall.Close(pair[1])
		if problem != "" {
			syscall.Close(pair[0])
			continue
		}
		reading.Add(1)
		stdout := i == 0
		go func(fd int) {
			defer reading.Done()
			readLines(fd, func(line string) { view.output(line, stdout) })
		}(pair[0])
	}
	if problem != "" {
		return outcome{}, 0, problem
	}
	o := signals.wait(pid)
	reading.Wait()
	return o, float64(time.Since(started).Nanoseconds()) / 1e6, ""
}

// readLines calls onLine with each line read from fd, as scheduler.ts's forEachLine: decoded as
// UTF-8 (the WHATWG way), split at \n with a \r before it left out, the last line even unterminated.
func readLines(fd int, onLine func(string)) {
	defer syscall.Close(fd)
	buffer := make([]byte, 64*1024)
	var pending []byte
	for {
		n, err := syscall.Read(fd, buffer)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 {
			break
		}
		pending = append(pending, buffer[:n]...)
		start := 0
		for {
			end := indexByteFrom(pending, '\n', start)
			if end < 0 {
				break
			}
			line := pending[start:end]
			if len(line) > 0 && line[len(line)-1] == '\r' {
				line = line[:len(line)-1]
			}
			onLine(decodeUTF8(line))
			start = end + 1
		}
		pending = append(pending[:0], pending[start:]...)
	}
	if len(pending) > 0 {
		onLine(decodeUTF8(pending))
	}
}

func indexByteFrom(data []byte, c byte, from int) int {
	for i := from; i < len(data); i++ {
		if data[i] == c {
			return i
		}
	}
	return -1
}

// decodeUTF8 is the WHATWG UTF-8 decoder (as Node's and V8's): each maximal ill-formed
// subsequence becomes one U+FFFD.
func decodeUTF8(data []byte) string {
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	needed, seen, codePoint := 0, 0, rune(0)
	lower, upper := byte(0x80), byte(0xbf)
	for i := 0; i < len(data); i++ {
		c := data[i]
		if needed == 0 {
			switch {
			case c <= 0x7f:
				b.WriteByte(c)
			case c >= 0xc2 && c <= 0xdf:
				needed, codePoint = 1, rune(c&0x1f)
			case c >= 0xe0 && c <= 0xef:
				if c == 0xe0 {
					lower = 0xa0
				} else if c == 0xed {
					upper = 0x9f
				}
				needed, codePoint = 2, rune(c&0xf)
			case c >= 0xf0 && c <= 0xf4:
				if c == 0xf0 {
					lower = 0x90
				} else if c == 0xf4 {
					upper = 0x8f
				}
				needed, codePoint = 3, rune(c&0x7)
			default:
				b.WriteRune(utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			needed, seen, lower, upper = 0, 0, 0x80, 0xbf
			b.WriteRune(utf8.RuneError)
			i-- // the byte starts over
			continue
		}
		lower, upper = 0x80, 0xbf
		codePoint = codePoint<<6 | rune(c&0x3f)
		if seen++; seen == needed {
			b.WriteRune(codePoint)
			needed, seen = 0, 0
		}
	}
	if needed != 0 {
		b.WriteRune(utf8.RuneError)
	}
	return b.String()
}

// prefixedReporter (src/run/output/prefixed.ts): off a terminal, every line of every step on
// stdout as `<package> <step>: <line>`, then `<package> <step>: Exited with code N`.
func prefixedReporter(cwd string) func(t *task, s step) stepView {
	return func(t *task, s step) stepView {
		prefix := packageLabel(t.manifest, cwd) + " " + s.name + ": "
		return stepView{
			output: func(line string, _ bool) { writeOutput(1, prefix+line+"\n") },
			ended:  func(o outcome, _ float64) { writeOutput(1, prefix+endedText(o)+"\n") },
		}
	}
}

// foremanReporter (src/run/output/foreman.ts): `<label> | <line>`, labels padded to the longest
// and coloured on a terminal; stdout to stdout, stderr and each step's status line to stderr.
func foremanReporter(tasks []*task) func(t *task, s step) stepView {
	width := 0
	for _, t := range tasks {
		if n := utf16Length(t.label); n > width {
			width = n
		}
	}
	paints := [3]paint{1: painter(1), 2: painter(2)}
	colors := map[*task]string{}
	for i, t := range tasks {
		colors[t] = labelColors[i%len(labelColors)]
	}
	return func(t *task, _ step) stepView {
		color := colors[t]
		label := t.label + strings.Repeat(" ", width-utf16Length(t.label))
		print := func(fd int, line string) { writeOutput(fd, paints[fd].apply(label, color)+" | "+line+"\n") }
		return stepView{
			output: func(line string, stdout bool) {
				if stdout {
					print(1, line)
				} else {
					print(2, line)
				}
			},
			ended: func(o outcome, ms float64) {
				if o.exitCode == 0 {
					print(2, "Done in "+strconv.FormatFloat(math.Floor(ms+0.5), 'f', 0, 64)+"ms")
				} else {
					print(2, endedText(o))
				}
			},
		}
	}
}

// endedText is how a step ended, in Bun's words (src/run/output/style.ts).
func endedText(o outcome) string {
	if o.signal != "" {
		return "Signaled: " + o.signal
	}
	return "Exited with code " + strconv.Itoa(o.exitCode)
}

// utf16Length is a string's JavaScript length.
func utf16Length(text string) int {
	n := 0
	for _, r := range text {
		n++
		if r > 0xffff {
			n++
		}
	}
	return n
}

// outputLock keeps each line whole: the scripts' lines come from as many readers as pipes.
var outputLock sync.Mutex

func writeOutput(fd int, text string) {
	outputLock.Lock()
	defer outputLock.Unlock()
	writeFully(fd, text)
}
