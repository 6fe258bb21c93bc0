package cli

import (
	"fmt"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/report"
)

var matrixFormats = map[string]func(io.Writer, *check.Check, *report.Matrix, report.MatrixOptions) error{
	"markdown": func(w io.Writer, _ *check.Check, m *report.Matrix, _ report.MatrixOptions) error {
		return report.WriteMatrixMarkdown(w, m)
	},
	"csv": func(w io.Writer, _ *check.Check, m *report.Matrix, _ report.MatrixOptions) error {
		return report.WriteMatrixCSV(w, m)
	},
	"json": func(w io.Writer, _ *check.Check, m *report.Matrix, _ report.MatrixOptions) error {
		return report.WriteMatrixJSON(w, m)
	},
	"html": report.WriteMatrixHTML,
}

// runMatrix writes the traceability matrix (docs/matrix.md). Its exit code
// is 0 whenever the matrix is written, whatever the verdicts (seg check is
// the gate), 1 when --min-coverage is given and the share of satisfied
// requirements is below it, and 2 when seg cannot run.
func runMatrix(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("matrix", args, "markdown", stderr)
	if err != nil {
		return 0, check.Stats{}, err
	}
	write, ok := matrixFormats[o.format]
	if !ok {
		return 0, check.Stats{}, usagef("seg matrix: unknown --format %q (want one of: %s)", o.format, formatNames(matrixFormats))
	}
	if len(o.args) > 1 {
		return 0, check.Stats{}, usagef("seg matrix: too many arguments (usage: seg matrix [ROOT])")
	}
	if math.IsNaN(o.minCoverage) || o.minCoverage < 0 || o.minCoverage > 100 {
		return 0, check.Stats{}, usagef("seg matrix: --min-coverage must be a percentage from 0 to 100, not %v", o.minCoverage)
	}
	root, _ := rootArg(o.args)
	c, stats, err := load(root, o, stderr)
	if err != nil {
		return 0, stats, err
	}
	opt := report.MatrixOptions{LinkTemplate: o.linkTemplate, LinkBase: linkBase(root, o.output)}
	m := report.BuildMatrix(c, opt)
	code := exitOK
	if cov := m.Coverage.Satisfied; cov.Below(o.minCoverage) {
		code = exitFailed
	}
	code, err = emit(o, stdout, func(w io.Writer, _ bool) error { return write(w, c, m, opt) }, code)
	if err == nil && code == exitFailed {
		cov := m.Coverage.Satisfied
		fmt.Fprintf(stderr, "seg matrix: coverage %.1f%% (%d of %d requirements satisfied) is below --min-coverage %v%%\n",
			*cov.Percent, cov.Count, cov.Total, o.minCoverage)
	}
	return code, stats, err
}

// linkBase is the prefix of the HTML page's relative links: the path from
// the folder the page is written to (--output), or from the root when it
// goes to standard output, to the root, with a trailing slash.
func linkBase(root, output string) string {
	if output == "" || output == "-" {
		return ""
	}
	absRoot, err1 := filepath.Abs(root)
	absOut, err2 := filepath.Abs(output)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(filepath.Dir(absOut), absRoot)
	if err != nil {
		// No relative path (another drive): link to the files themselves.
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(absRoot)}
		if !strings.HasPrefix(u.Path, "/") {
			u.Path = "/" + u.Path
		}
		return u.String() + "/"
	}
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel) + "/"
}
