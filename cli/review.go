package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/report"
	"github.com/seg-trace/seg/review"
)

// runReview lists the links that need a review, or (--accept,
// --accept-all, --prune) rewrites seg.lock: the one file it writes, whole
// or not at all (docs/revisions.md).
func runReview(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("review", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	writing := len(o.accept) > 0 || o.acceptAll || o.prune
	switch {
	case wantFormat("review", o) != nil:
		return 0, check.Stats{}, wantFormat("review", o)
	case len(o.args) > 1:
		return 0, check.Stats{}, usagef("seg review: too many arguments (usage: seg review [flags] [ROOT])")
	case len(o.results) > 0:
		return 0, check.Stats{}, usagef("seg review: --results does not apply: the outcomes made from results files are never pinned")
	case o.dryRun && !writing:
		return 0, check.Stats{}, usagef("seg review: --dry-run goes with --accept, --accept-all or --prune")
	case writing && o.diff:
		return 0, check.Stats{}, usagef("seg review: --diff lists what changed; it does not go with --accept, --accept-all or --prune")
	case writing && o.format != "text":
		return 0, check.Stats{}, usagef("seg review: --format goes with listing, not with --accept, --accept-all or --prune")
	case writing && o.output != "":
		return 0, check.Stats{}, usagef("seg review: --output goes with listing; --accept, --accept-all and --prune write seg.lock")
	}
	root, _ := rootArg(o.args)
	c, stats, err := load(root, o, stderr)
	if err != nil {
		return 0, stats, err
	}
	r := review.List(c)
	if writing {
		code, err := writeLock(root, r, o, stdout)
		return code, stats, err
	}
	if o.diff {
		h, err := review.OpenHistory(root, c.Config.Parser)
		why := ""
		if err != nil {
			why = "no history to read: " + err.Error()
		}
		defer h.Close()
		if err := r.Diffs(h, why); err != nil {
			return 0, stats, fmt.Errorf("seg review: reading the history: %v", err)
		}
	}
	code := exitOK
	if len(r.Items) > 0 || c.Lock.Refused() {
		code = exitFailed
	}
	// review is a gate: a tree with errors (a link that cannot be read is
	// no link to review) never passes it, and the reader is told why.
	if n := c.Counts().Errors; n > 0 {
		fmt.Fprintf(stderr, "seg review: the tree has %s (seg check lists them); a link they break cannot be reviewed\n", plural(n, "error"))
		code = exitFailed
	}
	code, err = emit(o, stdout, func(w io.Writer, colored bool) error {
		if o.format == "json" {
			return report.WriteReviewJSON(w, r)
		}
		return report.WriteReview(w, r, colored)
	}, code)
	return code, stats, err
}

// writeLock applies --accept, --accept-all and --prune to seg.lock, or
// with --dry-run prints the diff it would make.
func writeLock(root string, r *review.Review, o *options, stdout io.Writer) (int, error) {
	var ids []string
	for _, a := range o.accept {
		ids = append(ids, splitList(a)...)
	}
	if len(o.accept) > 0 && len(ids) == 0 {
		return 0, usagef("seg review: --accept needs an ID")
	}
	ch := review.Change{Accept: ids, All: o.acceptAll, Prune: o.prune}
	after, err := r.Apply(ch, r.Check.Graph.Closest)
	var refused *review.RefusedError
	var unknown *review.UnknownError
	switch {
	case errors.As(err, &refused):
		return 0, usagef("seg review: %v", err)
	case errors.As(err, &unknown):
		return 0, usagef("%v", err)
	case err != nil:
		return 0, err
	}
	// The conditions of the accepted links that do not hold are
	// rewritten in the source: the one place review writes RST.
	rewrites, err := r.Rewrites(ch)
	var condErr *review.ConditionError
	if errors.As(err, &condErr) {
		return 0, usagef("%v", err)
	}
	name := filepath.Join(root, pins.FileName)
	before, err := cfgfile.Read(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("seg review: cannot read %s: %v", name, err)
	}
	if o.dryRun {
		for _, rw := range rewrites {
			if err := report.WriteSourceDiff(stdout, rw.File, rw.Old, rw.New); err != nil {
				return 0, err
			}
		}
		return exitOK, report.WriteLockDiff(stdout, before, after)
	}
	added, changed, dropped := pinChanges(r.Check.Lock.Pins, after)
	lockSame := added+changed+dropped == 0 && (before != nil || len(after) == 0)
	if lockSame && len(rewrites) == 0 {
		fmt.Fprintf(stdout, "%s: nothing to change (%s)\n", name, plural(len(after), "pin"))
		return exitOK, nil
	}
	// Every file is written whole beside itself first, and renamed into
	// place only once all are: a file that cannot be written leaves every
	// file as it was.
	var outs []*outFile
	defer func() {
		for _, f := range outs {
			f.discard()
		}
	}()
	for _, rw := range rewrites {
		f, err := openOutput(filepath.Join(root, filepath.FromSlash(rw.File)))
		if err != nil {
			return 0, err
		}
		outs = append(outs, f)
		if _, err := f.bw.Write(rw.New); err != nil {
			return 0, err
		}
	}
	if !lockSame {
		f, err := openOutput(name)
		if err != nil {
			return 0, err
		}
		outs = append(outs, f)
		if err := pins.Write(f.bw, after); err != nil {
			return 0, err
		}
	}
	for _, f := range outs {
		if err := f.bw.Flush(); err != nil {
			return 0, fmt.Errorf("seg: %v", err)
		}
	}
	for i, f := range outs {
		if err := f.finish(); err != nil {
			return 0, err
		}
		outs[i] = &outFile{} // finished: nothing to discard
	}
	for _, rw := range rewrites {
		fmt.Fprintf(stdout, "%s: %s rewritten to the target's current value\n", filepath.Join(root, filepath.FromSlash(rw.File)), plural(len(rw.Conditions), "link condition"))
		for _, c := range rw.Conditions {
			fmt.Fprintf(stdout, "  %s: [%s] -> [%s]\n", c.Link, c.Was, c.Now)
		}
	}
	if !lockSame {
		fmt.Fprintf(stdout, "%s: %s added, %d changed, %d dropped (%s)\n", name, plural(added, "pin"), changed, dropped, plural(len(after), "pin"))
	}
	return exitOK, nil
}

// pinChanges counts the links pinned anew, pinned to another revision,
// and no longer pinned.
func pinChanges(before, after []pins.Pin) (added, changed, dropped int) {
	was := map[pins.Link]uint64{}
	for _, p := range before {
		was[p.Link] = p.Revision
	}
	is := map[pins.Link]bool{}
	for _, p := range after {
		is[p.Link] = true
		switch r, ok := was[p.Link]; {
		case !ok:
			added++
		case r != p.Revision:
			changed++
		}
	}
	for l := range was {
		if !is[l] {
			dropped++
		}
	}
	return added, changed, dropped
}
