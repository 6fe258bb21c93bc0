package results

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// event is the part of a test2json event seg reads.
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	Key         string // Action "attr" (Go 1.25+: t.Attr)
	Value       string
	ImportPath  string // Action "build-output" and "build-fail" (Go 1.24+)
	FailedBuild string // on a package's "fail" (Go 1.24+)
}

// goRun is a test that has started and not ended yet.
type goRun struct {
	line    int    // of the last event naming the test
	message string // first line of output worth showing
	panic   string // first "panic: " line
	props   map[string][]string
	// benched: a benchmark (or one under it) printed a result line. go test
	// -json ends a benchmark that passed with no "pass" event, only that
	// line; one that fails or is skipped gets its "fail" or "skip".
	benched bool
	partial string // a benchmark's output line so far: go test can print
	// a long name and its figures in two events
}

type goPackage struct {
	ran         bool // a test of the package started
	buildFailed bool // an output line said "[build failed]" or "[setup failed]"
	failedBuild string
	message     string // first package-level output line worth showing
	panic       string // first package-level "panic: " line (older go test)
	running     map[string]*goRun
}

// readGoTest reads a `go test -json` stream. A case ends at the test's
// pass, fail or skip event; a test still running when its package ends (a
// panic, a timeout, os.Exit) is an error, except a benchmark that printed
// its result (go test ends a passing benchmark with no "pass" event); a package that fails before any
// test starts (a build failure) is one error case named by the package.
// Lines that are not JSON objects (compiler output of `go test -json 2>&1`)
// are passed over; a line that starts like one and does not parse is
// invalid-results.
func readGoTest(sf *source.File, data []byte) ([]Case, diag.List) {
	var (
		cases    []Case
		diags    diag.List
		pkgs     = map[string]*goPackage{}
		buildErr = map[string]string{} // import path -> first compiler message
		events   int
		bad      int
		badLine  int
		last     int
	)
	pos := func(line int) source.Pos { return sf.Mark(line, 1) }
	pkgOf := func(name string) *goPackage {
		p := pkgs[name]
		if p == nil {
			p = &goPackage{running: map[string]*goRun{}}
			pkgs[name] = p
		}
		return p
	}
	// end closes a package: its tests still running become errors, but
	// for the benchmarks that passed.
	end := func(name string, p *goPackage, line int, failed bool) {
		for test, r := range p.running {
			if benchPassed(p.running, test, r) {
				cases = append(cases, Case{Name: name + "." + test, Result: Passed, Pos: pos(r.line), Line: r.line, Properties: r.props})
				continue
			}
			msg := r.panic
			if msg == "" {
				msg = p.panic
			}
			if msg == "" {
				msg = "the test did not finish: its package ended while it ran"
			}
			cases = append(cases, Case{Name: name + "." + test, Result: Error, Pos: pos(r.line), Line: r.line, Properties: r.props, Message: msg})
		}
		if failed && !p.ran {
			msg := buildErr[p.failedBuild]
			if msg == "" {
				msg = p.message
			}
			if msg == "" && (p.buildFailed || p.failedBuild != "") {
				msg = "the package's tests did not build"
			}
			if msg == "" {
				msg = "the package failed before any test ran"
			}
			cases = append(cases, Case{Name: name, Result: Error, Pos: pos(line), Line: line, Message: msg, Covers: name})
		}
		delete(pkgs, name)
	}

	lineNo := 0
	for rest := data; len(rest) > 0; {
		var line []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, nil
		}
		lineNo++
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			if bad == 0 {
				badLine = lineNo
			}
			bad++
			continue
		}
		if e.Action == "" {
			continue
		}
		events++
		last = lineNo
		switch e.Action {
		case "build-output":
			if _, ok := buildErr[e.ImportPath]; !ok {
				if l := firstLine(e.Output); l != "" && !strings.HasPrefix(l, "# ") {
					buildErr[e.ImportPath] = l
				}
			}
			continue
		case "build-fail":
			continue
		}
		if e.Package == "" {
			continue
		}
		p := pkgOf(e.Package)
		if e.Test == "" {
			switch e.Action {
			case "output":
				if strings.Contains(e.Output, "[build failed]") || strings.Contains(e.Output, "[setup failed]") {
					p.buildFailed = true
				}
				if p.panic == "" && strings.HasPrefix(e.Output, "panic: ") {
					p.panic = firstLine(e.Output)
				}
				if p.message == "" {
					if l := firstLine(e.Output); l != "" && !strings.HasPrefix(l, "FAIL") && !strings.HasPrefix(l, "ok ") {
						p.message = l
					}
				}
			case "fail":
				p.failedBuild = e.FailedBuild
				end(e.Package, p, lineNo, true)
			case "pass", "skip":
				end(e.Package, p, lineNo, false)
			}
			continue
		}
		r := p.running[e.Test]
		switch {
		case e.Action == "run":
			r = &goRun{}
			p.running[e.Test] = r
			p.ran = true
		case r != nil:
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			r = &goRun{} // an end without a start: still the test's result
		default:
			continue // output of a test that is not running makes no case
		}
		r.line = lineNo
		switch e.Action {
		case "output":
			if r.panic == "" && strings.HasPrefix(e.Output, "panic: ") {
				r.panic = firstLine(e.Output)
			}
			out := e.Output
			if strings.HasPrefix(e.Test, "Benchmark") {
				out = r.partial + out
				r.partial = ""
				if !strings.HasSuffix(out, "\n") {
					r.partial = out
				}
			}
			if strings.HasPrefix(e.Test, "Benchmark") && r.partial == "" && isBenchResult(e.Test, out) {
				r.benched = true
				for t := e.Test; strings.Contains(t, "/"); {
					t = t[:strings.LastIndexByte(t, '/')]
					if up := p.running[t]; up != nil {
						up.benched = true
					}
				}
			}
			if r.message == "" {
				if l := firstLine(e.Output); l != "" && !strings.HasPrefix(l, "--- ") {
					r.message = l
				}
			}
		case "attr":
			if r.props == nil {
				r.props = map[string][]string{}
			}
			r.props[e.Key] = append(r.props[e.Key], e.Value)
		case "pass", "fail", "skip":
			c := Case{Name: e.Package + "." + e.Test, Pos: pos(lineNo), Line: lineNo, Properties: r.props}
			switch {
			case e.Action == "pass":
				c.Result = Passed
			case e.Action == "skip":
				c.Result, c.Message = Skipped, r.message
			case r.panic != "":
				c.Result, c.Message = Error, r.panic
			default:
				c.Result, c.Message = Failed, r.message
			}
			cases = append(cases, c)
			delete(p.running, e.Test)
		}
	}

	if bad > 0 {
		what := "a line is not a valid go test -json event"
		if bad > 1 {
			what += " (and " + strconv.Itoa(bad-1) + " more lines after it)"
		}
		if badLine == lineNo {
			what = "the last line is not a complete go test -json event (truncated?)"
		}
		diags = append(diags, invalid(pos(badLine), "%s", what))
	}
	if events == 0 && bad == 0 {
		diags = append(diags, invalid(pos(1), "no go test -json event in the file"))
	}
	// Packages that never ended: the stream was cut. Their running tests
	// have no result, and none is made up for them.
	var open []string
	for name, p := range pkgs {
		if len(p.running) > 0 {
			open = append(open, name)
		}
	}
	if len(open) > 0 && badLine != lineNo {
		sort.Strings(open)
		diags = append(diags, invalid(pos(last),
			"the stream ends while tests of %s are still running (truncated?)", strings.Join(open, ", ")))
	}
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].Line < cases[j].Line })
	return cases, diags
}

// isBenchResult reports whether out is the result line of the benchmark
// test: its name (with "-N" for GOMAXPROCS when not 1), then the number
// of iterations, then the measurements ("BenchmarkX-2 \t 100 \t 51.2 ns/op").
func isBenchResult(test, out string) bool {
	f := strings.Fields(out)
	if len(f) < 3 {
		return false
	}
	if procs, ok := strings.CutPrefix(f[0], test+"-"); ok {
		if _, err := strconv.Atoi(procs); err != nil {
			return false
		}
	} else if f[0] != test {
		return false
	}
	_, err := strconv.ParseUint(f[1], 10, 64)
	return err == nil
}

// benchPassed reports whether the benchmark test, still running when its
// package ended, passed: it (or a benchmark under it) printed a result,
// and neither it nor any benchmark under it panicked or was cut short.
func benchPassed(running map[string]*goRun, test string, r *goRun) bool {
	if !strings.HasPrefix(test, "Benchmark") || !r.benched || r.panic != "" {
		return false
	}
	for t, sub := range running {
		if strings.HasPrefix(t, test+"/") && (!sub.benched || sub.panic != "") {
			return false
		}
	}
	return true
}
