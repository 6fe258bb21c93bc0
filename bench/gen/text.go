package gen

import "strconv"

// rng is a small splitmix64 generator. It is written out here, rather than
// taken from math/rand, so that the bytes a seed gives never depend on the
// Go release that built the generator.
type rng struct{ s uint64 }

func newRNG(parts ...uint64) rng {
	var s uint64 = 0x243f6a8885a308d3
	for _, p := range parts {
		s = mix(s ^ p)
	}
	return rng{s}
}

func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n must be positive and below 2^32.
func (r *rng) intn(n int) int { return int((r.next() >> 32) * uint64(n) >> 32) }

// chance is true with probability p.
func (r *rng) chance(p float64) bool { return float64(r.next()>>11) < p*(1<<53) }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// Word lists. Titles and anything that ends up in a section title or a
// table stay ASCII; paragraphs carry some multi-byte UTF-8.
var (
	compBase = []string{
		"parser", "lexer", "resolver", "evaluator", "report", "cache", "cli",
		"config", "graph", "results", "matrix", "explain", "walker",
		"encoding", "diagnostics", "sarif", "junit", "hooks", "server",
		"storage", "scheduler", "export", "importer", "audit",
	}
	subjects = []string{
		"The parser", "The evaluator", "Every report", "The cache",
		"The command line", "The resolver", "The walker", "The matrix writer",
		"Each worker", "The configuration loader", "The JSON writer",
		"The results importer", "A pre-commit hook", "The graph builder",
		"Each diagnostic", "The release pipeline",
	}
	// verbs are third-person forms; dropping the final "s" gives the base.
	verbs = []string{
		"reads", "rejects", "reports", "keeps", "sorts", "records",
		"resolves", "expands", "flags", "lists", "checks", "merges",
		"preserves", "validates", "writes", "ignores", "counts", "limits",
		"explains", "caches",
	}
	objects = []string{
		"option blocks", "tab-indented lines", "duplicate identifiers",
		"link entries", "comment blocks", "literal blocks",
		"nested directive bodies", "results files", "configuration tables",
		"waiver dates", "refinement cycles", "file positions",
		"diagnostic codes", "suspect edges", "retired edges",
		"skipped outcomes", "unwitnessed outcomes", "byte offsets",
		"CRLF line ends", "byte order marks", "section titles",
		"field lists", "continuation lines", "test cases", "source paths",
		"exclude globs", "evaluation dates", "cache entries", "JSON reports",
		"SARIF logs", "requirement titles", "configuration names",
	}
	quals = []string{
		"in every file", "before the first blank line", "within 100 ms",
		"under concurrent runs", "across the whole tree",
		"for each configuration", "without changing the tree",
		"in source order", "by file, line and column",
		"when the root is read-only", "for trees of any size",
		"on every platform", "after a restart", "with a stable code",
	}
	adjectives = []string{
		"stable", "predictable", "reviewable", "cheap to check",
		"easy to audit", "small", "explicit",
	}
	inlineCode = []string{
		"seg check", "--at 2026-11-29", "--no-cache", "seg explain",
		"--format json", "GOMAXPROCS=2", "seg matrix", "--color never",
	}
	areas = []string{
		"Reading the tree", "Building the graph", "Evaluation", "Reporting",
		"Configuration", "Results intake", "Performance", "Safety",
		"Interfaces", "Operations", "Portability", "Auditability",
	}
	steps = []string{
		"Prepare a tree with the documented fixture.",
		"Run ``seg check`` on the tree with ``--at 2026-11-29``.",
		"Change one option value and run the check again.",
		"Compare the JSON report with the stored golden file.",
		"Repeat the run with the files listed in reverse order.",
		"Remove the cache directory and run once more.",
		"Inspect the diagnostics for positions and codes.",
		"Record the exit code.",
	}
	fileWords = []string{
		"scan", "lexer", "tokens", "graph", "eval", "report", "cache",
		"walk", "config", "links", "ids", "positions", "waivers", "outcomes",
		"matrix", "text", "json", "sarif", "junit", "gotest",
	}
	admonitions = []string{"note", "warning", "important", "tip", "attention", "hint"}
	langs       = []string{"go", "python", "yaml", "toml", "console", "text"}
)

var snippets = map[string][]string{
	"go": {
		"func (s *Scanner) Next() (Token, error) {",
		"\tfor s.pos < len(s.src) {",
		"\t\tif s.src[s.pos] == '\\n' {",
		"\t\t\ts.line++",
		"\t\t}",
		"\t\ts.pos++",
		"\t}",
		"\treturn Token{Kind: EOF}, nil",
		"}",
	},
	"python": {
		"def load(path):",
		"    with open(path, encoding=\"utf-8\") as f:",
		"        for number, line in enumerate(f, 1):",
		"            if line.startswith(\".. \"):",
		"                yield number, line.rstrip()",
	},
	"yaml": {
		"jobs:",
		"  check:",
		"    runs-on: ubuntu-latest",
		"    steps:",
		"      - uses: actions/checkout@v4",
		"      - run: seg check --format json --output seg.json",
	},
	"toml": {
		"id_pattern = \"^[A-Z][A-Z0-9-]*$\"",
		"exclude = [\"drafts/**\"]",
		"",
		"[directives]",
		"hlr = \"requirement\"",
	},
	"console": {
		"$ seg check docs",
		"docs/parser.rst:14:15: error: unresolved link [unresolved-link]",
		"1 error, 0 warnings; 41 of 42 requirements satisfied",
		"$ echo $?",
		"1",
	},
	"text": {
		"requirement        verdict      reasons",
		"-----------------  -----------  -------",
		"SYS-001            satisfied    0",
		"REQ-PARSER-001     unsatisfied  2",
	},
}

// logLines fill the literal blocks of failed outcomes.
var logLines = []string{
	"--- FAIL: TestLeafRule/skipped_only (0.01s)",
	"    leaf_test.go:88: verdict = satisfied, want unsatisfied",
	"panic: runtime error: index out of range [3] with length 3",
	"goroutine 7 [running]:",
	"FAIL\tgithub.com/acme/product/internal/eval\t0.412s",
	"exit status 1",
	"timeout after 300s waiting for the fixture server",
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}

func base(verb string) string { return verb[:len(verb)-1] }

// sentence makes one prose sentence. None starts with a digit or a
// punctuation mark, so a wrapped paragraph never looks like a list.
func sentence(r *rng) string {
	switch r.intn(12) {
	case 0, 1, 2:
		return pick(r, subjects) + " " + pick(r, verbs) + " " + pick(r, objects) + " " + pick(r, quals) + "."
	case 3:
		return "When " + lowerFirst(pick(r, subjects)) + " " + pick(r, verbs) + " " + pick(r, objects) +
			", it also " + pick(r, verbs) + " " + pick(r, objects) + " " + pick(r, quals) + "."
	case 4:
		return "This keeps " + pick(r, objects) + " " + pick(r, adjectives) + " " + pick(r, quals) + "."
	case 5:
		return "Reviewers asked that ``" + pick(r, inlineCode) + "`` be shown for " + pick(r, objects) + "."
	case 6:
		return "*Note* that " + pick(r, objects) + " are **not** reordered " + pick(r, quals) + "."
	case 7:
		return "See `the design notes <https://example.com/design/" + pick(r, fileWords) + ">`__ for " + pick(r, objects) + "."
	case 8:
		return "The budget is ≤ " + strconv.Itoa(10+r.intn(990)) + " µs per file — measured on the reference machine."
	case 9:
		return "Historically, " + pick(r, objects) + " were handled by a naïve scan; the team in Zürich replaced it."
	case 10:
		return pick(r, subjects) + " must not " + base(pick(r, verbs)) + " " + pick(r, objects) + " twice."
	default:
		return "Each release records how many " + pick(r, objects) + " it found (currently " + strconv.Itoa(r.intn(5000)) + ")."
	}
}

// pad formats n in decimal, zero-padded to width w.
func pad(n, w int) string {
	s := strconv.Itoa(n)
	for len(s) < w {
		s = "0" + s
	}
	return s
}

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}
