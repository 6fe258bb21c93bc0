package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/review"
	"github.com/seg-trace/seg/revision"
)

// WriteReview writes what seg review found as text: seg.lock's errors,
// then one line a link that needs a review (with, after --diff, what
// changed in its target), then a summary that says how to accept.
func WriteReview(w io.Writer, r *review.Review, colored bool) error {
	bw := bufio.NewWriter(w)
	st := newStyle(colored)
	c := r.Check
	wh := whereOf(c)
	for _, d := range c.Lock.Diagnostics {
		writeDiagnostic(bw, st, wh, d)
	}
	shown := map[string]bool{} // a target's diff is shown once
	for _, it := range r.Items {
		at := st.pos(wh.at(it.At.Start).String())
		switch it.Kind {
		case review.Stale:
			fmt.Fprintf(bw, "%s: %s link %s: %s changed since it was reviewed (pinned %s, now %s; it is at %s)\n",
				at, st.warn("stale"), it.Link, it.Link.To, revisions(it.Pinned), revision.String(it.Current), wh.at(it.To.Pos()))
		case review.Unreviewed:
			fmt.Fprintf(bw, "%s: %s link %s: no pin (strict review; %s is at %s, revision %s)\n",
				at, st.warn("unreviewed"), it.Link, it.Link.To, wh.at(it.To.Pos()), revision.String(it.Current))
		case review.Orphan:
			fmt.Fprintf(bw, "%s: %s pin %s %s: the tree has no such link\n", at, st.warn("orphan"), it.Link, revisions(it.Pinned))
		case review.Condition:
			verb := "does not hold for"
			if it.Condition.State == graph.ConditionInvalid {
				verb = "cannot be evaluated on"
			}
			fmt.Fprintf(bw, "%s: %s link %s: its condition [%s] %s %s: %s (it is at %s)\n",
				at, st.warn("stale"), it.Link, it.Condition.Text, verb, it.Link.To, it.Condition.Values(), wh.at(it.To.Pos()))
		}
		if d := it.Diff; d != nil {
			key := fmt.Sprint(it.Link.To, it.Pinned)
			if shown[key] {
				fmt.Fprintf(bw, "    %s\n", st.note("what changed in "+it.Link.To+" is shown above"))
				continue
			}
			shown[key] = true
			if d.Text == "" {
				fmt.Fprintf(bw, "    %s\n", st.note("no diff: "+d.Missing))
				continue
			}
			for _, line := range strings.SplitAfter(strings.TrimSuffix(d.Text, "\n"), "\n") {
				fmt.Fprintf(bw, "    %s", diffLine(st, line))
			}
			bw.WriteByte('\n')
		}
	}
	if len(c.Lock.Diagnostics) > 0 || len(r.Items) > 0 {
		bw.WriteByte('\n')
	}
	fmt.Fprintln(bw, reviewSummary(r))
	if c.Lock.Refused() {
		return bw.Flush()
	}
	if ids := acceptIDs(r); len(ids) > 0 {
		fmt.Fprintf(bw, "Once reviewed: seg review --accept %s\n", strings.Join(ids, ","))
	}
	if counts(r)[review.Orphan] > 0 {
		fmt.Fprintln(bw, "Drop orphan pins: seg review --prune")
	}
	return bw.Flush()
}

func diffLine(st style, line string) string {
	switch {
	case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		return st.bold(line)
	case strings.HasPrefix(line, "+"):
		return st.ok(line)
	case strings.HasPrefix(line, "-"):
		return st.bad(line)
	case strings.HasPrefix(line, "@@"):
		return st.note(line)
	}
	return line
}

func revisions(rs []uint64) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = revision.String(r)
	}
	return strings.Join(s, ", ")
}

func counts(r *review.Review) map[review.Kind]int {
	n := map[review.Kind]int{}
	for _, it := range r.Items {
		n[it.Kind]++
	}
	return n
}

// reviewSummary is the last line of seg review's text.
func reviewSummary(r *review.Review) string {
	s := "No link needs a review."
	if len(r.Items) > 0 {
		n := counts(r)
		var parts []string
		if n[review.Stale] > 0 {
			parts = append(parts, fmt.Sprintf("%d stale", n[review.Stale]))
		}
		if n[review.Unreviewed] > 0 {
			parts = append(parts, fmt.Sprintf("%d unreviewed", n[review.Unreviewed]))
		}
		if n[review.Orphan] > 0 {
			parts = append(parts, plural(n[review.Orphan], "orphan pin"))
		}
		if n[review.Condition] > 0 {
			parts = append(parts, plural(n[review.Condition], "condition")+" that do not hold")
		}
		verb := "need"
		if len(r.Items) == 1 {
			verb = "needs"
		}
		s = fmt.Sprintf("%s %s a review: %s.", plural(len(r.Items), "link"), verb, strings.Join(parts, ", "))
	}
	if e := len(r.Check.Lock.Diagnostics); e > 0 {
		s += fmt.Sprintf(" seg.lock has %s: seg review will not rewrite it until they are fixed.", plural(e, "error"))
	}
	return s
}

// acceptIDs are the nodes whose links a reviewer accepts to clear the
// stale and unreviewed items, sorted.
func acceptIDs(r *review.Review) []string {
	var ids []string
	for _, it := range r.Items {
		if it.Kind != review.Orphan {
			ids = append(ids, it.Link.From)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// The seg-review/1 schema (docs/json.md).
type jsonReview struct {
	Schema      string           `json:"schema"`
	Summary     jsonReviewCounts `json:"summary"`
	Links       []jsonReviewLink `json:"links"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
}

type jsonReviewCounts struct {
	Stale      int `json:"stale"`
	Unreviewed int `json:"unreviewed"`
	Orphan     int `json:"orphan"`
	Condition  int `json:"condition"`
	LockErrors int `json:"lock_errors"`
}

type jsonReviewLink struct {
	State   string          `json:"state"`
	From    string          `json:"from"`
	Link    string          `json:"link"`
	To      string          `json:"to"`
	File    string          `json:"file"`
	Line    int             `json:"line"`
	Column  int             `json:"column"`
	ToFile  string          `json:"to_file,omitempty"`
	ToLine  int             `json:"to_line,omitempty"`
	Pinned  []string        `json:"pinned"`
	Current string          `json:"current,omitempty"`
	Diff    *jsonReviewDiff `json:"diff,omitempty"`
	// A condition item: the entry's condition, whether it fails or
	// cannot be evaluated, and what the target's fields are now.
	Condition      string `json:"condition,omitempty"`
	ConditionState string `json:"condition_state,omitempty"`
	Values         string `json:"values,omitempty"`
}

type jsonReviewDiff struct {
	Commit  string `json:"commit,omitempty"`
	Text    string `json:"text,omitempty"`
	Missing string `json:"missing,omitempty"`
}

// WriteReviewJSON writes the seg-review/1 document.
func WriteReviewJSON(w io.Writer, r *review.Review) error {
	c := r.Check
	wh := whereOf(c)
	n := counts(r)
	doc := jsonReview{
		Schema:      "seg-review/1",
		Summary:     jsonReviewCounts{n[review.Stale], n[review.Unreviewed], n[review.Orphan], n[review.Condition], len(c.Lock.Diagnostics)},
		Links:       []jsonReviewLink{},
		Diagnostics: []jsonDiagnostic{},
	}
	for _, it := range r.Items {
		p := wh.at(it.At.Start)
		jl := jsonReviewLink{State: it.Kind.String(), From: it.Link.From, Link: it.Link.Link, To: it.Link.To,
			File: p.Filename, Line: p.Line, Column: p.Column, Pinned: []string{}}
		for _, rev := range it.Pinned {
			jl.Pinned = append(jl.Pinned, revision.String(rev))
		}
		if it.To != nil {
			tp := wh.at(it.To.Pos())
			jl.ToFile, jl.ToLine, jl.Current = tp.Filename, tp.Line, revision.String(it.Current)
		}
		if d := it.Diff; d != nil {
			jl.Diff = &jsonReviewDiff{d.Commit, d.Text, d.Missing}
		}
		if it.Kind == review.Condition {
			jl.Condition, jl.ConditionState, jl.Values = it.Condition.Text, it.Condition.State.String(), it.Condition.Values()
		}
		doc.Links = append(doc.Links, jl)
	}
	for _, d := range c.Lock.Diagnostics {
		doc.Diagnostics = append(doc.Diagnostics, diagJSON(wh, d))
	}
	return encode(w, doc)
}

// WriteSourceDiff writes the unified diff of a source file that seg
// review --accept rewrites (a link condition), for --dry-run.
func WriteSourceDiff(w io.Writer, name string, before, after []byte) error {
	_, err := io.WriteString(w, udiff.Unified("a/"+name, "b/"+name, string(before), string(after)))
	return err
}

// WriteLockDiff writes the unified diff from seg.lock's bytes now to the
// pins a review would write (seg review --dry-run).
func WriteLockDiff(w io.Writer, before []byte, after []pins.Pin) error {
	var b strings.Builder
	if err := pins.Write(&b, after); err != nil {
		return err
	}
	_, err := io.WriteString(w, udiff.Unified("a/"+pins.FileName, "b/"+pins.FileName, string(before), b.String()))
	return err
}
