package review

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/parser"
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
		file := r.Check.Files.Position(it.To.Pos()).Filename
		if n == nil {
			d.Missing = "the target was not read from a file of the tree"
			continue
		}
		var sources []string
		var entries []parser.Link
		if o := n.Option("source"); n.Kind == parser.Implementation && o != nil {
			entries = o.Links
			for _, l := range entries {
				sources = append(sources, l.ID)
			}
		}
		var found Found
		var walked int
		var pinned uint64
		ok := false
		for _, pinned = range it.Pinned {
			var err error
			found, walked, ok, err = h.Find(n.ID, n.Kind, file, sources, pinned)
			if err != nil {
				return err
			}
			if ok {
				break
			}
		}
		if !ok {
			d.Missing = fmt.Sprintf("no commit of the repository's history of %s has the pinned revision (%s walked)", file, plural(walked, "commit"))
			continue
		}
		d.Commit = found.Commit
		now := r.Check.Config.Parser.Document(n)
		var files map[string][]byte
		if len(entries) > 0 {
			var se []parser.SourceEntry
			se, files, _ = readSources(glob.Dir(r.Check.Root), entries, func(p string) ([]byte, string, error) {
				data, err := os.ReadFile(filepath.Join(r.Check.Root, filepath.FromSlash(p)))
				if err != nil {
					return nil, "unreadable", nil
				}
				return data, sha256Hex(data), nil
			})
			// n.Revision is the whole revision by now; the document
			// holds the text's.
			now += parser.ImplementationCanonical(parser.Revision(now), se)
		}
		short := found.Commit
		if len(short) > 12 {
			short = short[:12]
		}
		var b strings.Builder
		b.WriteString(udiff.Unified(
			fmt.Sprintf("%s at %s (commit %s)", n.ID, parser.RevisionString(pinned), short),
			fmt.Sprintf("%s now (%s)", n.ID, parser.RevisionString(it.Current)), found.Document, now))
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
		d.Text = b.String()
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
