package diag

import (
	"fmt"
	"strings"
)

// "Did you mean" is part of a diagnostic, so its one policy lives here:
// every suggestion seg makes (a link's ID, an option, a state, a result, a
// config key, an ID on the command line) measures with Distance and
// accepts at most MaxTypos edits.

// MaxTypos is how many edits apart a word and a candidate may be for the
// candidate to be suggested, where n is the longer of their lengths in
// bytes: one up to 5 bytes (two edits turn one short word into any
// other), two up to 8, three from 9. The distance is symmetric, and so is
// the limit: a word with letters missing ("satisfy" for "satisfies")
// is judged by the length of the word it lacks them from.
func MaxTypos(n int) int { return max(1, min(3, n/3)) }

// Distance is the optimal-string-alignment distance between a and b, in
// bytes: insertions, deletions, substitutions and swaps of two adjacent
// bytes each count one edit (a swapped pair is the commonest typo). It
// returns limit+1 as soon as the distance is known to exceed limit, so
// measuring a word against many candidates stays cheap.
func Distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	// An optimal alignment matches a common prefix and a common suffix
	// byte for byte, so only what lies between is measured: IDs share
	// long prefixes ("SEG-TS-AUDIT-00"), and a tree's "did you mean"
	// measures a mistyped ID against tens of thousands of them.
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	// Three rows: the one two back is what a swap reads.
	var buf [3 * 33]int
	var rows []int
	if n := len(b) + 1; 3*n <= len(buf) {
		rows = buf[:3*n]
	} else {
		rows = make([]int, 3*n)
	}
	n := len(b) + 1
	back, prev, cur := rows[:n:n], rows[n:2*n:2*n], rows[2*n:3*n:3*n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		ai := a[i-1]
		cur[0] = i
		rowMin := i
		for j := 1; j < n; j++ {
			v := prev[j-1] // a match
			if ai != b[j-1] {
				v = min(prev[j], cur[j-1], v) + 1
				if i > 1 && j > 1 && ai == b[j-2] && a[i-2] == b[j-1] {
					v = min(v, back[j-2]+1) // a swap
				}
			} else {
				v = min(v, prev[j]+1, cur[j-1]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		// A cell is at most one more than the cell above it, so when a
		// whole row exceeds the limit the row before is at the limit or
		// above, and no later cell (a swap reads two rows back) can come
		// under it again.
		if rowMin > limit {
			return limit + 1
		}
		back, prev, cur = prev, cur, back
	}
	if d := prev[len(b)]; d <= limit {
		return d
	}
	return limit + 1
}

// Closest returns the candidate nearest to word, compared without regard
// to case, or "" when none is within MaxTypos edits. Of equally near
// candidates the one that sorts first wins, so the suggestion does not
// depend on the candidates' order (often a map's).
func Closest(word string, candidates []string) string {
	lw := strings.ToLower(word)
	best, bestD := "", 1<<30
	for _, c := range candidates {
		limit := MaxTypos(max(len(word), len(c)))
		d := Distance(lw, strings.ToLower(c), limit)
		if d <= limit && (d < bestD || d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean is ` (did you mean "x"?)` for the candidate Closest finds,
// quoted with %q, or "" when there is none.
func DidYouMean(word string, candidates []string) string {
	if s := Closest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}
