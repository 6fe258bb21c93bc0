package cli

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
)

// minCoverageFlag declares --min-coverage (check and matrix): thresholds
// on the coverage record (docs/check.md, "Coverage thresholds").
func minCoverageFlag(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.minCoverage, "min-coverage", "", "exit 1 when a coverage figure is below its threshold: a comma-separated `LIST` of [TYPE:]MEASURE=PCT, MEASURE one of "+
		strings.Join(evaluate.MeasureNames(), ", ")+" (a bare PCT is satisfied=PCT)")
}

// readThresholds reads --min-coverage into o.thresholds (exit 2 when it
// cannot be read).
func readThresholds(cmd string, o *options) error {
	if o.minCoverage == "" {
		return nil
	}
	ts, err := evaluate.ParseThresholds(o.minCoverage)
	if err != nil {
		if _, perr := strconv.ParseFloat(o.minCoverage, 64); perr == nil || !strings.ContainsAny(o.minCoverage, "=,:") {
			return usagef("seg %s: --min-coverage must be a percentage from 0 to 100, not %v", cmd, o.minCoverage)
		}
		return usagef("seg %s: --min-coverage: %v", cmd, err)
	}
	o.thresholds = ts
	return nil
}

// writeShortfalls says on stderr which thresholds the coverage of c
// misses, and by how much. The overall share of satisfied requirements
// keeps the words seg matrix has always used.
func writeShortfalls(stderr io.Writer, cmd string, c *check.Check) {
	for _, s := range c.Shortfalls() {
		if s.Type == "" && s.Measure == evaluate.MeasureSatisfied {
			fmt.Fprintf(stderr, "seg %s: coverage %.1f%% (%d of %d requirements satisfied) is below --min-coverage %v%%\n",
				cmd, s.Shown(), s.Count, s.Total, s.Percent)
			continue
		}
		fmt.Fprintf(stderr, "seg %s: coverage below --min-coverage %s\n", cmd, s)
	}
}
