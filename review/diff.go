package review

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// Diff is what changed in a stale link's target since the link was
// pinned: its text at the pinned revision, found in the repository's
// history, beside its text now.
type Diff struct {
	// Commit is where the pinned revision was found ("" when it was not).
	Commit string
	// Text is the unified diff of the target's canonical document and,
	// for an implementation, of each source file that changed.
	Text string
	// Missing says why there is no diff: no history, or no commit walked
	// has the pinned revision.
	Missing string
}

// Diffs finds, for every stale item, the target's text at the pinned
// revision and diffs it against its text now. h is nil when there is no
// history to read, and why says why.
func (r *Review) Diffs(h *History, why string) error {
	nodes := map[source.Pos]*parser.Node{}
	for _, f := range r.Check.Parsed {
		for i := range f.Nodes {
			nodes[f.Nodes[i].Pos] = &f.Nodes[i]
		}
	}
	for i := range r.Items {
		it := &r.Items[i]
		if it.Kind != Stale {
			continue
		}
		d := &Diff{}
		it.Diff = d
		if h == nil {
			d.Missing = why
			continue
		}
		n := nodes[it.To.Pos()]
		if n == nil {
			d.Missing = "the target was not read from a file of the tree"
			continue
		}
		if err := r.diff(h, it, n, d); err != nil {
			return err
		}
	}
	return nil
}

// diff fills d for the stale item it, whose target was read as n: the
// commit that has a revision it pins, and the diff from there to now, or
// why there is none.
func (r *Review) diff(h *History, it *Item, n *parser.Node, d *Diff) error {
	file := r.Check.Files.Position(it.To.Pos()).Filename
	var sources []string
	var entries []parser.Link
	if o := n.Option("source"); n.Kind == parser.Implementation && o != nil {
		entries = o.Links
		for _, l := range entries {
			sources = append(sources, l.ID)
		}
	}
	found, pinned, walked, ok, err := findPinned(h, n, file, sources, it.Pinned)
	if err != nil {
		return err
	}
	if !ok {
		d.Missing = fmt.Sprintf("no commit of the repository's history of %s has the pinned revision (%s walked)", file, plural(walked, "commit"))
		return nil
	}
	d.Commit = found.Commit
	now, files, err := r.current(n, entries)
	if err != nil {
		return err
	}
	d.Text = changes(n.ID, found, pinned, it.Current, now, files)
	return nil
}

// findPinned looks for the first of the pinned revisions that a commit of
// the history of n's file has; walked is how many commits the last search
// walked.
func findPinned(h *History, n *parser.Node, file string, sources []string, pins []uint64) (found Found, pinned uint64, walked int, ok bool, err error) {
	for _, pinned = range pins {
		found, walked, ok, err = h.Find(n.ID, n.Kind, file, sources, pinned)
		if err != nil || ok {
			return found, pinned, walked, ok, err
		}
	}
	return found, pinned, walked, false, nil
}

// current is n's canonical document now and, for an implementation (with
// its source entries), the files it names as they are in the tree.
func (r *Review) current(n *parser.Node, entries []parser.Link) (now string, files map[string][]byte, err error) {
	now = r.Check.Config.Parser.Document(n)
	if len(entries) == 0 {
		return now, nil, nil
	}
	var se []revision.Source
	se, files, err = readSources(glob.Dir(r.Check.Root), entries, func(p string) ([]byte, string, error) {
		data, err := safefile.Read(filepath.Join(r.Check.Root, filepath.FromSlash(p)))
		if err != nil {
			return nil, "unreadable", nil
		}
		return data, sha256Hex(data), nil
	})
	// n.Revision is the whole revision by now; the document holds the
	// text's.
	now += revision.Implementation(revision.Of(now), se)
	return now, files, err
}

// changes is the unified diff of the document with id from the pinned
// revision (found) to now, then of each source file that changed.
func changes(id string, found Found, pinned, current uint64, now string, files map[string][]byte) string {
	short := found.Commit
	if len(short) > 12 {
		short = short[:12]
	}
	var b strings.Builder
	b.WriteString(udiff.Unified(
		fmt.Sprintf("%s at %s (commit %s)", id, revision.String(pinned), short),
		fmt.Sprintf("%s now (%s)", id, revision.String(current)), found.Document, now))
	paths := map[string]bool{}
	for p := range found.Sources {
		paths[p] = true
	}
	for p := range files {
		paths[p] = true
	}
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		was, is := found.Sources[p], files[p]
		if string(was) == string(is) {
			continue
		}
		if !utf8.Valid(was) || !utf8.Valid(is) {
			fmt.Fprintf(&b, "Binary file %s changed\n", p)
			continue
		}
		b.WriteString(udiff.Unified(p+" at commit "+short, p+" now", string(was), string(is)))
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
