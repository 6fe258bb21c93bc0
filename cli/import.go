package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/report"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/review"
)

// runImport writes the outcomes read from test results as .. outcome::
// directives: a permanent record of a run, kept in the tree. It writes
// only the file --output names (standard
// output without it) and, when that file is in the tree, the pins of its
// outcomes' links in seg.lock. A results file that cannot be read completely is
// refused, so the record never holds half a run. Like every command but
// check, it exits 0 when it did its job and 2 when it could not.
func runImport(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("import", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if err := wantFormat("import", o); err != nil {
		return 0, check.Stats{}, err
	}
	if len(o.results) == 0 {
		return 0, check.Stats{}, usagef("seg import: --results FILE is required")
	}
	if len(o.args) > 1 {
		return 0, check.Stats{}, usagef("seg import: too many arguments (usage: seg import --results FILE --witness ID --output FILE [ROOT])")
	}
	root, _ := rootArg(o.args)
	c, stats, err := load(root, o, stderr)
	if err != nil {
		return 0, stats, err
	}
	var bad diag.List
	for _, d := range c.Diagnostics {
		if d.Code == results.CodeInvalidResults {
			bad = append(bad, d)
		}
	}
	if len(bad) > 0 {
		_, colored, _, _, _ := output(&options{color: o.color}, stderr)
		report.WriteDiagnostics(stderr, c, bad, colored)
		// The summary line of a text report, with nothing shown.
		fmt.Fprintf(stderr, "\n0 requirements: 0 satisfied, 0 failing, 0 unproven; %s, 0 warnings (evaluated at %s)\n",
			plural(len(bad), "error"), report.Date(c.At))
		// import is no gate: a results file it cannot read whole means it
		// could not do its job.
		return exitTrouble, stats, nil
	}
	if len(c.Outcomes) == 0 {
		fmt.Fprintln(stderr, "seg import: no test case of the results matches a test specification's :cases:; nothing written")
		return exitTrouble, stats, nil
	}
	if n := propertyTests(c); n > 0 {
		fmt.Fprintf(stderr, "seg import: %s confirm test specifications made from their cases' own properties (FullyVerifies, PartiallyVerifies, ...), which seg import does not write; nothing written. Read these results with --results or a [[results]] table instead (docs/results.md)\n",
			plural(n, "outcome"))
		return exitTrouble, stats, nil
	}
	// seg.lock is refused before anything is written, as seg review
	// refuses it.
	pin := pinsWanted(root, o.output, stderr)
	if err := review.Refusal(c); pin && err != nil {
		return 0, stats, usagef("seg import: %v", err)
	}
	var add []pins.Pin
	code, err := emit(o, stdout, func(w io.Writer, _ bool) error {
		return results.Import(w, c.Outcomes, results.ImportOptions{IDPattern: c.Config.Parser.IDPattern, Files: c.Files,
			Written: func(id string, n *parser.Node) {
				if pin {
					add = append(add, review.ImportPins(c, id, n)...)
				}
			}})
	}, exitOK)
	if err != nil || !pin {
		return code, stats, err
	}
	if err := addPins(root, c, add); err != nil {
		return 0, stats, err
	}
	fmt.Fprintf(stderr, "seg import: %s pinned in %s\n", plural(len(add), "link"), filepath.Join(root, pins.FileName))
	return code, stats, nil
}

// pinsWanted says whether the imported records are pinned in seg.lock:
// written into the tree, a record is pinned (its confirms and witnesses
// links name the revisions of the tests and the code the run was
// observed on, so it stops counting once they change:
// docs/revisions.md); written elsewhere, it is not, and stderr says so.
func pinsWanted(root, output string, stderr io.Writer) bool {
	if output == "" || output == "-" {
		return false
	}
	if rel, inside := underRoot(root, output); inside && strings.HasSuffix(rel, ".rst") {
		return true
	}
	fmt.Fprintf(stderr, "seg import: %s is not an .rst file under the root %s: no pins written to seg.lock\n", output, root)
	return false
}

// addPins rewrites the root's seg.lock with the pins add merged into
// those it holds.
func addPins(root string, c *check.Check, add []pins.Pin) error {
	lock, err := openOutput(filepath.Join(root, pins.FileName))
	if err != nil {
		return err
	}
	defer lock.discard()
	if err := pins.Write(lock.bw, pins.Merge(c.Lock.Pins, add)); err != nil {
		return err
	}
	return lock.finish()
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// propertyTests counts the outcomes of c that confirm a test
// specification made from a results case's properties: importing them
// would write :confirms: links to specifications no file defines.
func propertyTests(c *check.Check) int {
	n := 0
	for i := range c.Outcomes {
		if cf := c.Outcomes[i].Option("confirms"); cf != nil {
			for _, l := range cf.Links {
				if t, ok := c.Graph.Lookup(l.ID); ok && t.Kind() == parser.Test && t.FromResults() {
					n++
					break
				}
			}
		}
	}
	return n
}
