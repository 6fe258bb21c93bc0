package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// event is the part of a test2json event seg reads.
type event struct {
	Time        string
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
	time    string // of that event
	message lines  // first lines of output worth showing
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
	message     lines  // first package-level output lines worth showing
	panic       string // first package-level "panic: " line (older go test)
	running     map[string]*goRun
}

// lines collects the first MessageLines lines of output worth showing.
type lines []string

func (l *lines) add(text string, skip func(string) bool) {
	for _, line := range strings.Split(text, "\n") {
		if len(*l) >= MessageLines {
			return
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "=== ") || skip(line) {
			continue
		}
		*l = append(*l, cut(line))
	}
}

func (l lines) String() string { return strings.Join(l, "\n") }

// maxEventLine is the longest go test -json line read; a longer one is
// passed over as damage (invalid-results), without being held whole. (A
// variable so that a test can lower it.)
var maxEventLine = 64 << 20

// goReader is the state of one go test -json stream being read.
type goReader struct {
	sf       *source.File
	emit     func(*Case)
	diags    diag.List
	pkgs     map[string]*goPackage
	buildErr map[string]string // import path -> first compiler messages
	badTime  bool
	pending  []Case // the cases of one package's end, put in line order
}

func (g *goReader) pos(line int) source.Pos { return g.sf.Mark(line, 1) }

// dated sets c's date from t, the Time of the event that ended it.
func (g *goReader) dated(c *Case, t string, line int) {
	if t == "" {
		return
	}
	tm, err := time.Parse(time.RFC3339Nano, t)
	if err != nil {
		c.BadDate = true
		if !g.badTime {
			g.badTime = true
			g.diags = append(g.diags, badTimestamp(g.pos(line), "the Time %q of this event is not a date and time", t))
		}
		return
	}
	c.Date = tm.UTC().Format(time.DateOnly)
}

func (g *goReader) pkg(name string) *goPackage {
	p := g.pkgs[name]
	if p == nil {
		p = &goPackage{running: map[string]*goRun{}}
		g.pkgs[name] = p
	}
	return p
}

// readGoTest reads a `go test -json` stream. A case ends at the test's
// pass, fail or skip event; a test still running when its package ends (a
// panic, a timeout, os.Exit) is an error, except a benchmark that printed
// its result (go test ends a passing benchmark with no "pass" event); a
// package that fails before any test starts (a build failure) is one error
// case named by the package. Lines that are not JSON objects (compiler
// output of `go test -json 2>&1`) are passed over; a line that starts like
// one and does not parse is invalid-results. Each case is emitted when the
// event that ends it is read.
func readGoTest(sf *source.File, r *bufio.Reader, emit func(*Case)) diag.List {
	g := &goReader{sf: sf, emit: emit, pkgs: map[string]*goPackage{}, buildErr: map[string]string{}}
	var (
		s    goStream
		long []byte
	)
	for {
		line, tooLong, err := readEventLine(r, &long)
		if err != nil && err != io.EOF {
			g.diags = append(g.diags, invalid(g.pos(s.lineNo+1), "%v", bare(err)))
			break
		}
		if len(line) == 0 && err == io.EOF {
			break
		}
		s.lineNo++
		var e event
		switch t := bytes.TrimSpace(line); {
		case tooLong:
			s.damaged()
		case len(t) == 0 || t[0] != '{':
		case json.Unmarshal(t, &e) != nil:
			s.damaged()
		case e.Action != "":
			s.events++
			s.last = s.lineNo
			g.event(&e, s.lineNo)
		}
		if err == io.EOF {
			break
		}
	}
	g.streamEnded(&s)
	return g.diags
}

// goStream counts the lines of a go test -json stream.
type goStream struct {
	lineNo  int // lines read
	events  int // events read
	last    int // the line of the last event
	bad     int // lines that are damaged events
	badLine int // the first of them
}

// damaged counts the line just read as a damaged event.
func (s *goStream) damaged() {
	if s.bad == 0 {
		s.badLine = s.lineNo
	}
	s.bad++
}

// readEventLine reads one line of r, ending in '\n' unless it is the last.
// A line longer than r's buffer is gathered in *long, up to maxEventLine
// bytes; a longer one is returned empty, with tooLong set.
func readEventLine(r *bufio.Reader, long *[]byte) (line []byte, tooLong bool, err error) {
	line, err = r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, false, err
	}
	*long = append((*long)[:0], line...)
	for err == bufio.ErrBufferFull {
		line, err = r.ReadSlice('\n')
		if len(*long)+len(line) > maxEventLine {
			tooLong, *long = true, (*long)[:0]
		} else if !tooLong {
			*long = append(*long, line...)
		}
	}
	return *long, tooLong, err
}

// streamEnded reports what the whole stream s says: damaged lines, no
// event at all, or packages that never ended.
func (g *goReader) streamEnded(s *goStream) {
	if s.bad > 0 {
		what := "a line is not a valid go test -json event"
		if s.bad > 1 {
			what += " (and " + strconv.Itoa(s.bad-1) + " more lines after it)"
		}
		if s.badLine == s.lineNo {
			what = "the last line is not a complete go test -json event (truncated?)"
		}
		g.diags = append(g.diags, invalid(g.pos(s.badLine), "%s", what))
	}
	if s.events == 0 && s.bad == 0 {
		g.diags = append(g.diags, invalid(g.pos(1), "no go test -json event in the file"))
	}
	// Packages that never ended: the stream was cut. Their running tests
	// have no result, and none is made up for them.
	var open []string
	for name, p := range g.pkgs {
		if len(p.running) > 0 {
			open = append(open, name)
		}
	}
	if len(open) > 0 && s.badLine != s.lineNo {
		sort.Strings(open)
		g.diags = append(g.diags, invalid(g.pos(s.last),
			"the stream ends while tests of %s are still running (truncated?)", strings.Join(open, ", ")))
	}
}

// end closes a package at line (an event at time at): its tests still
// running become errors, but for the benchmarks that passed.
func (g *goReader) end(name string, p *goPackage, line int, at string, failed bool) {
	g.pending = g.pending[:0]
	for test, r := range p.running {
		c := Case{Name: name + "." + test, Pos: g.pos(r.line), Line: r.line, Properties: r.props}
		g.dated(&c, r.time, r.line)
		if benchPassed(p.running, test, r) {
			c.Result = Passed
		} else {
			msg := r.panic
			if msg == "" {
				msg = p.panic
			}
			if msg == "" {
				msg = "the test did not finish: its package ended while it ran"
			}
			c.Result, c.Message = Error, msg
		}
		g.pending = append(g.pending, c)
	}
	sort.Slice(g.pending, func(i, j int) bool {
		a, b := &g.pending[i], &g.pending[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Name < b.Name
	})
	for i := range g.pending {
		g.emit(&g.pending[i])
	}
	if failed && !p.ran {
		msg := g.buildErr[p.failedBuild]
		if msg == "" {
			msg = p.message.String()
		}
		if msg == "" && (p.buildFailed || p.failedBuild != "") {
			msg = "the package's tests did not build"
		}
		if msg == "" {
			msg = "the package failed before any test ran"
		}
		c := Case{Name: name, Result: Error, Pos: g.pos(line), Line: line, Message: msg, Covers: name}
		g.dated(&c, at, line)
		g.emit(&c)
	}
	delete(g.pkgs, name)
}

// event applies one event of the stream, read at line lineNo.
func (g *goReader) event(e *event, lineNo int) {
	switch e.Action {
	case "build-output":
		g.buildOutput(e)
		return
	case "build-fail":
		return
	}
	if e.Package == "" {
		return
	}
	p := g.pkg(e.Package)
	if e.Test == "" {
		g.packageEvent(p, e, lineNo)
		return
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
		return // output of a test that is not running makes no case
	}
	r.line, r.time = lineNo, e.Time
	switch e.Action {
	case "output":
		testOutput(p, r, e)
	case "attr":
		if r.props == nil {
			r.props = map[string][]string{}
		}
		r.props[e.Key] = append(r.props[e.Key], e.Value)
	case "pass", "fail", "skip":
		g.testEnded(p, r, e, lineNo)
	}
}

// buildOutput keeps the first compiler messages of a package's build.
func (g *goReader) buildOutput(e *event) {
	if _, ok := g.buildErr[e.ImportPath]; ok {
		return
	}
	var l lines
	l.add(e.Output, func(s string) bool { return strings.HasPrefix(s, "# ") })
	if len(l) > 0 {
		g.buildErr[e.ImportPath] = l.String()
	}
}

// packageEvent applies an event of package p that names no test.
func (g *goReader) packageEvent(p *goPackage, e *event, lineNo int) {
	switch e.Action {
	case "output":
		if strings.Contains(e.Output, "[build failed]") || strings.Contains(e.Output, "[setup failed]") {
			p.buildFailed = true
		}
		if p.panic == "" && strings.HasPrefix(e.Output, "panic: ") {
			p.panic = firstLine(e.Output)
		}
		p.message.add(e.Output, func(l string) bool {
			return strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "ok ") || l == "PASS"
		})
	case "fail":
		p.failedBuild = e.FailedBuild
		g.end(e.Package, p, lineNo, e.Time, true)
	case "pass", "skip":
		g.end(e.Package, p, lineNo, e.Time, false)
	}
}

// testOutput takes a line of output of the running test r of package p:
// a panic, a benchmark's result, a message.
func testOutput(p *goPackage, r *goRun, e *event) {
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
	r.message.add(e.Output, func(l string) bool { return strings.HasPrefix(l, "--- ") })
}

// testEnded emits the case of test r of package p, which ended with e's
// pass, fail or skip at line lineNo.
func (g *goReader) testEnded(p *goPackage, r *goRun, e *event, lineNo int) {
	c := Case{Name: e.Package + "." + e.Test, Pos: g.pos(lineNo), Line: lineNo, Properties: r.props}
	g.dated(&c, e.Time, lineNo)
	switch {
	case e.Action == "pass":
		c.Result = Passed
	case e.Action == "skip":
		c.Result, c.Message = Skipped, r.message.String()
	case r.panic != "":
		c.Result, c.Message = Error, r.panic
	default:
		c.Result, c.Message = Failed, r.message.String()
	}
	delete(p.running, e.Test)
	g.emit(&c)
}

// firstLine is the first line of text worth showing, cut to MessageWidth.
func firstLine(s string) string {
	var l lines
	l.add(s, func(string) bool { return false })
	if len(l) == 0 {
		return ""
	}
	return l[0]
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
