package diag

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// naive is the optimal-string-alignment distance by its textbook
// definition, without the limit.
func naive(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func TestDistanceAgreesWithTheDefinition(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "acb", "verifies", "verfies", "veriifes",
		"REQ-01", "REQ-10", "REQ-1", "SEG-SREQ-006", "SEG-SREQ-06", "implements", "implemnets",
		"passed", "PASSED", "pased", "skipped", "error", "erorr", "ca", "abc", "a-much-longer-identifier-than-the-row-buffer-holds-01",
		"a-much-longer-identifier-than-the-row-buffer-holds-10"}
	for _, a := range words {
		for _, b := range words {
			want := naive(a, b)
			for limit := 0; limit <= 4; limit++ {
				got := Distance(a, b, limit)
				if want <= limit && got != want || want > limit && got != limit+1 {
					t.Errorf("Distance(%q, %q, %d) = %d, want %d (true distance %d)", a, b, limit, got, min(want, limit+1), want)
				}
			}
		}
	}
}

// Random words over three letters are full of common prefixes and
// suffixes, swaps next to them, and repeated letters: what measuring only
// between the common affixes must get right.
func TestDistanceOfRandomWords(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	word := func() string {
		b := make([]byte, r.IntN(9))
		for i := range b {
			b[i] = "abc"[r.IntN(3)]
		}
		return string(b)
	}
	for range 200000 {
		a, b := word(), word()
		if r.IntN(2) == 0 {
			p := word()
			a, b = p+a+"x", p+b+"x"
		}
		want := naive(a, b)
		limit := r.IntN(5)
		if got := Distance(a, b, limit); want <= limit && got != want || want > limit && got != limit+1 {
			t.Fatalf("Distance(%q, %q, %d) = %d, want %d", a, b, limit, got, min(want, limit+1))
		}
	}
}

func TestClosest(t *testing.T) {
	for _, tc := range []struct {
		word  string
		cands []string
		want  string
	}{
		{"verfies", []string{"verifies", "implements", "id"}, "verifies"},
		{"verifeis", []string{"verifies"}, "verifies"}, // a swap is one edit
		{"PASSED", []string{"passed", "failed", "skipped", "error"}, "passed"},
		{"pass", []string{"passed", "failed", "skipped", "error"}, "passed"},
		{"ok", []string{"passed", "failed", "skipped", "error"}, ""},
		{"satisfy", []string{"links", "satisfies"}, "satisfies"},
		{"REQ-01", []string{"REQ-123"}, ""},
		{"ok", []string{"id", "on"}, "on"},
		{"x", []string{"id"}, ""},
		{"exclud", []string{"exclude", "extra_options"}, "exclude"},
		{"SEG-SREQ-06", []string{"SEG-SREQ-006", "SEG-SREQ-016"}, "SEG-SREQ-006"},
		{"REQ-10", []string{"REQ-1"}, "REQ-1"},
		{"anything", nil, ""},
	} {
		if got := Closest(tc.word, tc.cands); got != tc.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", tc.word, tc.cands, got, tc.want)
		}
	}
	// The candidates' order does not change the answer.
	if a, b := Closest("ab", []string{"ac", "aa"}), Closest("ab", []string{"aa", "ac"}); a != b || a != "aa" {
		t.Errorf("ties: %q and %q, want aa both times", a, b)
	}
	if got := DidYouMean("verfies", []string{"verifies"}); got != ` (did you mean "verifies"?)` {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("zzz", []string{"verifies"}); got != "" {
		t.Errorf("DidYouMean with nothing near = %q", got)
	}
}

func TestArticle(t *testing.T) {
	for word, want := range map[string]string{
		"implementation": "an implementation", "outcome": "an outcome", "requirement": "a requirement",
		"test": "a test", "waiver": "a waiver", "need": "a need", "": "a ",
	} {
		if got := Article(word); got != want {
			t.Errorf("Article(%q) = %q, want %q", word, got, want)
		}
	}
}

// BenchmarkDistance measures one ID against 1,000 IDs of its length, as
// the graph's suggester does for an unresolved link.
func BenchmarkDistance(b *testing.B) {
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("SEG-SREQ-%03d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, id := range ids {
			Distance("SEG-SREQ-06", id, MaxTypos(len(id)))
		}
	}
}
