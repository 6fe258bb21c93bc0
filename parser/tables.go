package parser

import (
	"sort"
	"unicode/utf8"
)

// Table cells hold body elements in docutils, so a directive in a cell is a
// node. A cell is a rectangle of the source, not a run of lines, so its
// lines are added to s.lines as extra lines that point into the middle of
// physical lines; the rest of the scanner reads them like any others.

// trow is one table line as docutils indexes it: one entry per character
// (plus a padding entry after each wide character), each with its byte
// offset; off[len(r)] is the end of the text.
type trow struct {
	r   []rune
	off []int
}

const padRune = -1

func isWide(r rune) bool {
	return r >= 0x1100 && r <= 0x115F || r >= 0x2E80 && r <= 0xA4CF || r >= 0xAC00 && r <= 0xD7A3 ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0xFE30 && r <= 0xFE4F || r >= 0xFF00 && r <= 0xFF60 ||
		r >= 0xFFE0 && r <= 0xFFE6 || r >= 0x20000 && r <= 0x3FFFD
}

// tableRow reads line i of bl as docutils' table parser sees it: indented
// text keeps its indentation as spaces.
func (s *scanner) tableRow(bl block, i int) trow {
	var t trow
	if s.blankAt(bl, i) {
		t.off = []int{s.textAt(bl, i)}
		return t
	}
	p := s.textAt(bl, i)
	for k := s.rel(bl, i); k > 0; k-- {
		t.r = append(t.r, ' ')
		t.off = append(t.off, p)
	}
	end := int(s.lines[i].end)
	for p < end {
		r, w := utf8.DecodeRune(s.src[p:end])
		t.r = append(t.r, r)
		t.off = append(t.off, p)
		if isWide(r) {
			t.r = append(t.r, padRune)
			t.off = append(t.off, p+w)
		}
		p += w
	}
	t.off = append(t.off, end)
	return t
}

func (t trow) at(k int) rune {
	if k < len(t.r) {
		return t.r[k]
	}
	return ' '
}

// cellLines adds the lines of the cell made of columns [left, right) of
// rows, and scans them as a nested body.
func (s *scanner) cellLines(rows []trow, left, right int) {
	lo := len(s.lines)
	minInd := -1
	for _, t := range rows {
		a, z := left, right
		if a > len(t.r) {
			a = len(t.r)
		}
		if z > len(t.r) {
			z = len(t.r)
		}
		start, end := t.off[a], t.off[z]
		end -= trailingSpace(s.src[start:end])
		cs, ind := start, 0
		for k := a; cs < end && k < z && t.r[k] == ' '; k++ {
			cs = t.off[k+1]
			ind++
		}
		ln := line{start: int32(start), end: int32(end), cs: int32(cs), ind: int32(ind)}
		if cs >= end {
			ln.ind, ln.cs = -1, int32(end)
		} else if minInd < 0 || ind < minInd {
			minInd = ind
		}
		s.lines = append(s.lines, ln)
	}
	if minInd < 0 {
		return
	}
	s.body(block{lo: lo, hi: len(s.lines), b: minInd, first: -1}, false)
}

func gridBorder(r []rune, fill rune) bool {
	n := len(r)
	for n > 0 && r[n-1] == ' ' {
		n--
	}
	if n < 4 || r[0] != '+' || r[1] != fill || r[n-1] != '+' || r[n-2] != fill {
		return false
	}
	for _, c := range r[:n] {
		if c != fill && c != '+' {
			return false
		}
	}
	return true
}

// gridTable isolates a grid table the way docutils does, then parses its
// cells (docutils' GridTableParser) and scans each for nodes.
func (s *scanner) gridTable(bl block, i int) int {
	j := i
	for j < bl.hi && s.rel(bl, j) == 0 {
		j++
	}
	for k := i; k < j; k++ {
		if c := s.lineText(bl, k)[0]; c != '+' && c != '|' {
			j = k
			break
		}
	}
	if !gridTop(s.lineText(bl, j-1)) {
		found := false
		for k := j - 2; k > i+1; k-- {
			if gridTop(s.lineText(bl, k)) {
				j = k + 1
				found = true
				break
			}
		}
		if !found {
			return j
		}
	}
	rows := make([]trow, j-i)
	for k := range rows {
		rows[k] = s.tableRow(bl, i+k)
	}
	width := len(rows[0].r)
	sep := -1
	for k, t := range rows {
		if len(t.r) != width || (t.r[width-1] != '+' && t.r[width-1] != '|') {
			return j // malformed
		}
		if k > 0 && gridBorder(t.r, '=') {
			if sep >= 0 {
				return j
			}
			sep = k
			r := append([]rune(nil), t.r...)
			for x := range r {
				if r[x] == '=' {
					r[x] = '-'
				}
			}
			rows[k].r = r
		}
	}
	if sep == len(rows)-1 {
		return j
	}
	g := grid{rows: rows, bottom: len(rows) - 1, right: width - 1}
	cells, ok := g.parse()
	if !ok {
		return j
	}
	for _, c := range cells {
		s.cellLines(rows[c.top+1:c.bottom], c.left+1, c.right)
	}
	return j
}

type cell struct{ top, left, bottom, right int }

type grid struct {
	rows          []trow
	bottom, right int
	done          []int
}

func (g *grid) parse() ([]cell, bool) {
	g.done = make([]int, g.right+1)
	for k := range g.done {
		g.done[k] = -1
	}
	var cells []cell
	corners := [][2]int{{0, 0}}
	for len(corners) > 0 {
		top, left := corners[0][0], corners[0][1]
		corners = corners[1:]
		if top == g.bottom || left == g.right || top <= g.done[left] {
			continue
		}
		bottom, right, ok := g.scanRight(top, left)
		if !ok {
			continue
		}
		for col := left; col < right; col++ {
			if g.done[col] != top-1 {
				return nil, false
			}
			g.done[col] = bottom - 1
		}
		cells = append(cells, cell{top, left, bottom, right})
		corners = append(corners, [2]int{top, right}, [2]int{bottom, left})
		sort.Slice(corners, func(a, b int) bool {
			if corners[a][0] != corners[b][0] {
				return corners[a][0] < corners[b][0]
			}
			return corners[a][1] < corners[b][1]
		})
	}
	for col := 0; col < g.right; col++ {
		if g.done[col] != g.bottom-1 {
			return nil, false
		}
	}
	sort.SliceStable(cells, func(a, b int) bool {
		if cells[a].top != cells[b].top {
			return cells[a].top < cells[b].top
		}
		return cells[a].left < cells[b].left
	})
	return cells, true
}

func (g *grid) at(row, col int) rune { return g.rows[row].at(col) }

func (g *grid) scanRight(top, left int) (int, int, bool) {
	for i := left + 1; i <= g.right; i++ {
		switch g.at(top, i) {
		case '+':
			if bottom, ok := g.scanDown(top, left, i); ok {
				return bottom, i, true
			}
		case '-':
		default:
			return 0, 0, false
		}
	}
	return 0, 0, false
}

func (g *grid) scanDown(top, left, right int) (int, bool) {
	for i := top + 1; i <= g.bottom; i++ {
		switch g.at(i, right) {
		case '+':
			if g.scanLeft(top, left, i, right) {
				return i, true
			}
		case '|':
		default:
			return 0, false
		}
	}
	return 0, false
}

func (g *grid) scanLeft(top, left, bottom, right int) bool {
	for i := right - 1; i > left; i-- {
		if c := g.at(bottom, i); c != '+' && c != '-' {
			return false
		}
	}
	if g.at(bottom, left) != '+' {
		return false
	}
	for i := bottom - 1; i > top; i-- {
		if c := g.at(i, left); c != '+' && c != '|' {
			return false
		}
	}
	return true
}

// simpleTable isolates a simple table the way docutils does, then parses
// its rows and columns (docutils' SimpleTableParser) and scans each cell.
func (s *scanner) simpleTable(bl block, i int) int {
	top := len(s.lineText(bl, i))
	found, foundAt := 0, -1
	end := -1
	for k := i + 1; k < bl.hi; k++ {
		if s.rel(bl, k) != 0 || !simpleBorder(s.lineText(bl, k)) {
			continue
		}
		if len(s.lineText(bl, k)) != top {
			return k + 1 // malformed
		}
		found++
		foundAt = k
		if found == 2 || k == bl.hi-1 || s.blankAt(bl, k+1) {
			end = k
			break
		}
	}
	if end < 0 {
		next := bl.hi
		if found > 0 {
			next = foundAt + 1
		}
		return next // malformed: no bottom border
	}
	rows := make([]trow, end+1-i)
	for k := range rows {
		rows[k] = s.tableRow(bl, i+k)
	}
	st := simple{rows: rows}
	if cells, ok := st.parse(); ok {
		for _, c := range cells {
			s.cellLines(rows[c.top:c.bottom], c.left, c.right)
		}
	}
	return end + 1
}

type simple struct {
	rows      []trow
	columns   [][2]int
	borderEnd int
	cells     []cell
	bad       bool
}

func runeLine(r []rune, only ...rune) bool {
	n := len(r)
	for n > 0 && r[n-1] == ' ' {
		n--
	}
	if n == 0 || r[0] != only[0] {
		return false
	}
	for _, c := range r[:n] {
		if c != only[0] && c != ' ' {
			return false
		}
	}
	return true
}

func (st *simple) parse() ([]cell, bool) {
	rows := st.rows
	toDash := func(k int) {
		r := append([]rune(nil), rows[k].r...)
		for x := range r {
			if r[x] == '=' {
				r[x] = '-'
			}
		}
		rows[k].r = r
	}
	toDash(0)
	toDash(len(rows) - 1)
	sep := -1
	for k := range rows {
		if runeLine(rows[k].r, '=') {
			if sep >= 0 {
				return nil, false
			}
			sep = k
			toDash(k)
		}
	}
	st.columns = st.parseColumns(rows[0].r, nil)
	if st.bad || len(st.columns) == 0 {
		return nil, false
	}
	st.borderEnd = st.columns[len(st.columns)-1][1]
	first := st.columns[0]
	start, textFound := 1, false
	for off := 1; off < len(rows); off++ {
		r := rows[off].r
		switch {
		case runeLine(r, '-'):
			st.parseRow(start, off, r)
			start, textFound = off+1, false
		case !blankRunes(r, first[0], first[1]):
			if textFound && off != start {
				st.parseRow(start, off, nil)
			}
			start, textFound = off, true
		case !textFound:
			start = off + 1
		}
		if st.bad {
			return nil, false
		}
	}
	return st.cells, !st.bad
}

func blankRunes(r []rune, a, z int) bool {
	for k := a; k < z && k < len(r); k++ {
		if r[k] != ' ' {
			return false
		}
	}
	return true
}

func (st *simple) parseColumns(line []rune, _ []int) [][2]int {
	var cols [][2]int
	end := 0
	for {
		begin := -1
		for k := end; k < len(line); k++ {
			if line[k] == '-' {
				begin = k
				break
			}
		}
		if begin < 0 {
			break
		}
		end = len(line)
		for k := begin; k < len(line); k++ {
			if line[k] == ' ' {
				end = k
				break
			}
		}
		cols = append(cols, [2]int{begin, end})
	}
	if st.columns != nil && len(cols) > 0 {
		if cols[len(cols)-1][1] != st.borderEnd {
			st.bad = true
			return nil
		}
		cols[len(cols)-1][1] = st.columns[len(st.columns)-1][1]
	}
	return cols
}

func (st *simple) parseRow(start, end int, span []rune) {
	if start >= end && span == nil {
		return
	}
	var columns [][2]int
	if span != nil {
		columns = st.parseColumns(span, nil)
		if st.bad {
			return
		}
	} else {
		columns = append(columns, st.columns...)
	}
	// check_columns: text in a margin is an error; text past the last
	// column widens it.
	lines := st.rows[start:end]
	for i := range columns {
		a, z := columns[i][0], columns[i][1]
		next := 1 << 30
		if i+1 < len(columns) {
			next = columns[i+1][0]
		}
		for _, t := range lines {
			if i == len(columns)-1 && !blankRunes(t.r, z, len(t.r)) {
				n := len(t.r)
				for n > a && t.r[n-1] == ' ' {
					n--
				}
				main := st.columns[len(st.columns)-1]
				columns[i][1] = max(main[1], n)
				if n > main[1] {
					st.columns[len(st.columns)-1][1] = n
				}
			} else if !blankRunes(t.r, z, min(next, len(t.r))) {
				st.bad = true
				return
			}
		}
	}
	// init_row: each span must line up with the table's columns.
	ci := 0
	for _, c := range columns {
		if ci >= len(st.columns) || c[0] != st.columns[ci][0] {
			st.bad = true
			return
		}
		for c[1] != st.columns[ci][1] {
			ci++
			if ci >= len(st.columns) {
				st.bad = true
				return
			}
		}
		ci++
	}
	for _, c := range columns {
		st.cells = append(st.cells, cell{top: start, left: c[0], bottom: end, right: c[1]})
	}
}
