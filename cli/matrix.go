package cli

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/needs"
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
	o, err := parseFlags("matrix", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if err := wantFormat("matrix", o); err != nil {
		return 0, check.Stats{}, err
	}
	write := matrixFormats[o.format]
	if len(o.args) > 1 {
		return 0, check.Stats{}, usagef("seg matrix: too many arguments (usage: seg matrix [ROOT])")
	}
	if err := readThresholds("matrix", o); err != nil {
		return 0, check.Stats{}, err
	}
	root, _ := rootArg(o.args)
	c, stats, err := load(root, o, stderr)
	if err != nil {
		return 0, stats, err
	}
	cols, err := matrixColumns(c, o.columns)
	if err != nil {
		return 0, stats, err
	}
	title := o.title
	if title == "" {
		title = c.Config.Matrix.Title
	}
	if title == "" {
		title = treeName(root)
	}
	opt := report.MatrixOptions{LinkTemplate: o.linkTemplate, LinkBase: linkBase(root, o.output), Columns: cols, Title: title}
	m := report.BuildMatrix(c, opt)
	// The matrix gates on the coverage thresholds alone: it is written
	// whatever the tree holds (seg check gates on the rest).
	c.MinCoverage = o.thresholds
	code := exitOK
	if len(c.Shortfalls()) > 0 {
		code = exitFailed
	}
	code, err = emit(o, stdout, func(w io.Writer, _ bool) error { return write(w, c, m, opt) }, code)
	if err == nil && code == exitFailed {
		writeShortfalls(stderr, "matrix", c)
	}
	return code, stats, err
}

// matrixColumns are the HTML page's columns: --columns, else the
// config's [matrix] columns, else the default (nil). A name that is
// neither a column nor an option the config allows is exit 2.
func matrixColumns(c *check.Check, flag string) ([]string, error) {
	allowed := func(name string) bool {
		pc := c.Config.Parser
		if pc.ExtraOptions[name] {
			return true
		}
		if nd := pc.Needs; nd != nil {
			return slices.Contains(needs.CoreOptions, name) || slices.Contains(nd.Extra, name)
		}
		return false
	}
	if flag != "" {
		cols := splitList(flag)
		if err := report.CheckColumns(cols, allowed); err != nil {
			return nil, usagef("seg matrix: --columns: %v", err)
		}
		return cols, nil
	}
	cols := c.Config.Matrix.Columns
	if err := report.CheckColumns(cols, allowed); err != nil {
		return nil, fmt.Errorf("seg: bad config: %s:%d: [matrix] columns: %v", c.Config.File, c.Config.Matrix.ColumnsLine, err)
	}
	return cols, nil
}

// treeName names the tree in the page's heading and printed headers: the
// root folder's name.
func treeName(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	return filepath.Base(abs)
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
