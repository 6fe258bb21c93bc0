package lsp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/seg-trace/seg/internal/lazyre"
)

// errRequestFailed answers a request the server understood but refuses
// (LSP's RequestFailed), with a message the editor shows.
func errRequestFailed(format string, args ...any) error {
	return jsonrpc2.NewError(-32803, fmt.Sprintf(format, args...))
}

// target is what sits under the cursor.
type target struct {
	id   string
	span span // where the ID is written at the cursor
	// def is set when the cursor is on a definition (the :id: value or
	// the directive line) rather than on a reference.
	def  bool
	node *node // the node whose block the cursor is on, if any
}

var needRole = lazyre.New(":need:`([^`]*)`")

// targetAt finds the ID at offset off of file.
func targetAt(snap snapshot, file string, t *text, off int) (target, bool) {
	nodes := snap.nodes(file)
	for i := range nodes {
		n := &nodes[i]
		for _, o := range n.options {
			for _, l := range o.links {
				if l.span.start <= off && off <= l.span.end {
					return target{id: l.id, span: l.span, node: n}, true
				}
			}
		}
		if n.id != "" && n.hasIDOpt && n.idSpan.start <= off && off <= n.idSpan.end {
			return target{id: n.id, span: n.idSpan, def: true, node: n}, true
		}
		if n.id != "" && n.span.start <= off && off <= n.span.end {
			return target{id: n.id, span: n.idSpan, def: true, node: n}, true
		}
	}
	// A sphinx-needs role in the text: :need:`ID` or :need:`text <ID>`.
	li := lineIndex(t.lines, off)
	ls, le := t.lines[li], t.lineEnd(li)
	for _, m := range needRole.FindAllSubmatchIndex(t.src[ls:le], -1) {
		a, b := ls+m[2], ls+m[3]
		if off < ls+m[0] || off > ls+m[1] {
			continue
		}
		body := string(t.src[a:b])
		if i, j := strings.LastIndexByte(body, '<'), strings.LastIndexByte(body, '>'); i >= 0 && j == len(body)-1 {
			a, b = a+i+1, a+j
		}
		id := strings.TrimSpace(string(t.src[a:b]))
		if id == "" {
			return target{}, false
		}
		return target{id: id, span: span{a, b}}, true
	}
	if len(nodes) == 0 && !strings.HasSuffix(file, ".rst") {
		return codeTarget(snap, t, off)
	}
	return target{}, false
}

// codeTarget finds the ID at off in a file of code (a source file with
// code tags, docs/codetags.md): the word there, when a node has it as
// its ID.
func codeTarget(snap snapshot, t *text, off int) (target, bool) {
	isID := func(c byte) bool {
		return c == '_' || c == '-' || c == '.' || c == ':' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	a, b := off, off
	for a > 0 && isID(t.src[a-1]) {
		a--
	}
	for b < len(t.src) && isID(t.src[b]) {
		b++
	}
	// Punctuation around an ID is not part of it.
	for a < b && strings.IndexByte(".:-", t.src[a]) >= 0 {
		a++
	}
	for b > a && strings.IndexByte(".:-", t.src[b-1]) >= 0 {
		b--
	}
	if a == b {
		return target{}, false
	}
	id := string(t.src[a:b])
	if _, ok := snap.lookup(id); !ok {
		return target{}, false
	}
	return target{id: id, span: span{a, b}}, true
}

// at resolves a request's document and position.
func (s *server) at(ctx context.Context, u uri.URI, p protocol.Position) (snapshot, string, *text, int, bool) {
	snap := s.current(ctx)
	if snap == nil {
		return nil, "", nil, 0, false
	}
	file, ok := s.path(u)
	if !ok {
		return nil, "", nil, 0, false
	}
	t := s.docText(snap, file)
	return snap, file, t, t.offset(p, s.encoding()), true
}

// targetOf resolves a request's document and position to the ID there.
func (s *server) targetOf(ctx context.Context, u uri.URI, p protocol.Position) (snapshot, string, *text, target, bool) {
	snap, file, t, off, ok := s.at(ctx, u, p)
	if !ok {
		return nil, "", nil, target{}, false
	}
	tg, ok := targetAt(snap, file, t, off)
	return snap, file, t, tg, ok
}

func (s *server) encoding() encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

func (s *server) location(snap snapshot, file string, sp span, texts map[string]*text) protocol.Location {
	t := texts[file]
	if t == nil {
		t = textOf(snap, file)
		texts[file] = t
	}
	return protocol.Location{URI: s.uriOf(file), Range: t.rangeOf(sp, s.encoding())}
}

func (s *server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	snap, file, t, tg, ok := s.targetOf(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return nil, nil
	}
	n, ok := snap.lookup(tg.id)
	if !ok {
		return nil, nil
	}
	loc := s.location(snap, n.file, n.span, map[string]*text{file: t})
	return &loc, nil
}

func (s *server) References(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	snap, file, t, tg, ok := s.targetOf(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return nil, nil
	}
	texts := map[string]*text{file: t}
	out := []protocol.Location{}
	if p.Context.IncludeDeclaration {
		if n, ok := snap.lookup(tg.id); ok {
			out = append(out, s.location(snap, n.file, n.idSpan, texts))
		}
	}
	for _, r := range snap.references(tg.id) {
		out = append(out, s.location(snap, r.file, r.span, texts))
	}
	return out, nil
}

// symbolKind is how an editor shows each kind of node in its outline.
func symbolKind(kind string) protocol.SymbolKind {
	switch kind {
	case "requirement":
		return protocol.SymbolKindClass
	case "test":
		return protocol.SymbolKindMethod
	case "implementation":
		return protocol.SymbolKindFunction
	case "outcome":
		return protocol.SymbolKindEvent
	case "waiver":
		return protocol.SymbolKindKey
	}
	return protocol.SymbolKindObject
}

// blockEnd is the end of a directive's block: the last non-blank line
// indented deeper than the directive's "..", as RST reads a block.
func blockEnd(t *text, start int) int {
	li := lineIndex(t.lines, start)
	col := indentOf(t.src[t.lines[li]:start])
	end := t.lineEnd(li)
	for l := li + 1; l < len(t.lines); l++ {
		a, b := t.lines[l], t.lineEnd(l)
		line := t.src[a:b]
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if indentOf(line) <= col {
			break
		}
		end = b
	}
	return end
}

// indentOf measures leading white space with 8-column tabs.
func indentOf(line []byte) int {
	col := 0
	for _, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col = col/8*8 + 8
		default:
			return col
		}
	}
	return col
}

func (s *server) DocumentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	snap := s.current(ctx)
	if snap == nil {
		return nil, nil
	}
	file, ok := s.path(p.TextDocument.URI)
	if !ok {
		return protocol.DocumentSymbolSlice{}, nil
	}
	t := s.docText(snap, file)
	enc := s.encoding()
	nodes := snap.nodes(file)
	syms := make([]protocol.DocumentSymbol, len(nodes))
	for i, n := range nodes {
		name := n.id
		if name == "" {
			name = "(no :id:)"
		}
		detail := n.directive
		if n.title != "" {
			detail += ": " + n.title
		}
		full := span{n.span.start, max(n.span.end, blockEnd(t, n.span.start))}
		sel := n.idSpan
		if sel.start < full.start || sel.end > full.end {
			sel = n.nameSpan
		}
		syms[i] = protocol.DocumentSymbol{
			Name: name, Detail: &detail, Kind: symbolKind(n.kind),
			Range: t.rangeOf(full, enc), SelectionRange: t.rangeOf(sel, enc),
		}
	}
	// Nest children under their parents, deepest first so that a child
	// is complete before it is copied into its parent.
	for i := len(nodes) - 1; i >= 0; i-- {
		if pi := nodes[i].parent; pi >= 0 && pi < i {
			syms[pi].Children = append([]protocol.DocumentSymbol{syms[i]}, syms[pi].Children...)
		}
	}
	out := protocol.DocumentSymbolSlice{}
	for i, n := range nodes {
		if n.parent < 0 || n.parent >= i {
			out = append(out, syms[i])
		}
	}
	return out, nil
}

// maxSymbols bounds a workspace symbol answer: a query of one letter on a
// tree of 100,000 nodes is not worth a megabyte of JSON.
const maxSymbols = 500

func (s *server) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	snap := s.current(ctx)
	if snap == nil {
		return nil, nil
	}
	q := strings.ToLower(strings.TrimSpace(p.Query))
	type hit struct {
		id, kind, title string
		rank            int
	}
	var hits []hit
	snap.each(func(id, kind, title string) bool {
		lid := strings.ToLower(id)
		rank := -1
		switch {
		case q == "":
			rank = 3
		case lid == q:
			rank = 0
		case strings.HasPrefix(lid, q):
			rank = 1
		case strings.Contains(lid, q):
			rank = 2
		case strings.Contains(strings.ToLower(title), q):
			rank = 3
		}
		if rank >= 0 {
			hits = append(hits, hit{id, kind, title, rank})
		}
		return true
	})
	slices.SortStableFunc(hits, func(a, b hit) int { return a.rank - b.rank })
	if len(hits) > maxSymbols {
		hits = hits[:maxSymbols]
	}
	texts := map[string]*text{}
	out := protocol.WorkspaceSymbolSlice{}
	for _, h := range hits {
		n, ok := snap.lookup(h.id)
		if !ok {
			continue
		}
		loc := s.location(snap, n.file, n.idSpan, texts)
		ws := protocol.WorkspaceSymbol{Location: &loc}
		ws.Name = h.id
		ws.Kind = symbolKind(h.kind)
		if h.title != "" {
			title := h.title
			ws.ContainerName = &title
		}
		out = append(out, ws)
	}
	return out, nil
}

func (s *server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	snap, _, t, tg, ok := s.targetOf(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return nil, nil
	}
	md := s.hoverText(snap, tg.id)
	r := t.rangeOf(tg.span, s.encoding())
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &r}, nil
}

// hoverText describes a node in Markdown: what it is and where, its
// revision, a requirement's status with the first reasons and what its
// evidence counts, and the links from and to it that no longer hold.
func (s *server) hoverText(snap snapshot, id string) string {
	n, ok := snap.lookup(id)
	if !ok {
		return fmt.Sprintf("`%s`: no node has this ID", id)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s` (%s", n.kind, n.id, n.directive)
	if n.title != "" {
		fmt.Fprintf(&b, ": %s", n.title)
	}
	b.WriteString(")\n\n")
	t := textOf(snap, n.file)
	pos := t.position(n.span.start, utf8Enc)
	fmt.Fprintf(&b, "%s:%d", n.file, pos.Line+1)
	if n.revision != "" {
		fmt.Fprintf(&b, ", revision `%s`", n.revision)
	}
	b.WriteString("\n")
	if v, ok := snap.verdict(id); ok {
		kind := "leaf"
		if !v.leaf {
			kind = "non-leaf"
		}
		fmt.Fprintf(&b, "\n**%s** (%s, evaluated at %s)\n\n", v.status, kind, snap.at())
		if v.notRead == 0 {
			fmt.Fprintf(&b, "%d test(s), %d outcome(s) of them (%d counted, %d skipped, %d excluded), %d implementation(s)\n",
				v.tests, v.outcomes, v.counted, v.skipped, v.excluded, v.impls)
		} else {
			fmt.Fprintf(&b, "%d test(s), %d outcome(s) of them (not counted: a non-leaf is decided by its children), %d implementation(s)\n",
				v.tests, v.outcomes, v.impls)
		}
		shown := 0
		for _, r := range v.reasons {
			if shown == 5 {
				b.WriteString("- …\n")
				break
			}
			if shown == 0 {
				b.WriteString("\n")
			}
			mark := ""
			if !r.blocking {
				mark = "note: "
			}
			fmt.Fprintf(&b, "- %s%s (%s) `%s`\n", mark, r.message, s.where(snap, r.file, r.span), r.code)
			shown++
		}
	}
	if ls := snap.links(id); len(ls) > 0 {
		b.WriteString("\n")
		for i, l := range ls {
			if i == 5 {
				fmt.Fprintf(&b, "- … (%d more)\n", len(ls)-5)
				break
			}
			fmt.Fprintf(&b, "- link `%s %s %s` is **%s**", l.from, l.option, l.to, l.state)
			if l.state == "stale" {
				fmt.Fprintf(&b, ": pinned `%s`, now `%s`", l.pinned, l.now)
			} else {
				b.WriteString(": no pin in seg.lock")
			}
			fmt.Fprintf(&b, " (%s)\n", s.where(snap, l.file, l.span))
		}
	}
	return b.String()
}

// where is file:line of a span.
func (s *server) where(snap snapshot, file string, sp span) string {
	if file == "" {
		return "no position"
	}
	return fmt.Sprintf("%s:%d", file, textOf(snap, file).position(sp.start, utf8Enc).Line+1)
}

var (
	optionLine    = lazyre.New(`^(\s*):([^:\s]*)$`)
	fieldMarker   = lazyre.New(`^(\s*):([^:\s]+):(\s*)`)
	directiveLine = lazyre.New(`^(\s*)\.\.\s+(?:\|[^|]*\|\s+)?([^\s:]+)::`)
)

// maxCompletions bounds a completion list; the client asks again as the
// writer types more of the ID (isIncomplete).
const maxCompletions = 1000

func (s *server) Completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	snap, _, t, off, ok := s.at(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return nil, nil
	}
	enc := s.encoding()
	li := lineIndex(t.lines, off)
	ls := t.lines[li]
	before := string(t.src[ls:off])
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	if file, _ := s.path(p.TextDocument.URI); !strings.HasSuffix(file, ".rst") && len(snap.nodes(file)) == 0 {
		// A source file: after a code tag's marker, the requirements.
		if !slices.ContainsFunc(codeMarkers, func(m string) bool { return strings.Contains(before, m) }) {
			return list, nil
		}
		return s.completeIDs(snap, t, ls, off, []string{"requirement"}, list), nil
	}
	directive, option, optIndent, ok := s.enclosing(t, li)
	if !ok {
		return list, nil
	}
	// An option name being typed: ":" then letters.
	if m := optionLine.FindStringSubmatch(before); m != nil && (optIndent < 0 || len(m[1]) == optIndent) {
		names, ok := snap.optionNames(directive)
		if !ok {
			return list, nil
		}
		start := ls + len(m[1]) + 1
		r := t.rangeOf(span{start, off}, enc)
		for _, n := range names {
			if !strings.HasPrefix(n, strings.ToLower(m[2])) {
				continue
			}
			it := protocol.CompletionItem{
				Label: ":" + n + ":", Kind: protocol.CompletionItemKindProperty,
				FilterText: protocol.NewOptional(n),
				TextEdit:   &protocol.TextEdit{Range: r, NewText: n + ": "},
			}
			if ts := snap.linkTargets(directive, n); ts != nil {
				it.Detail = protocol.NewOptional("links to " + strings.Join(ts, " or "))
			}
			list.Items = append(list.Items, it)
		}
		return list, nil
	}
	if option == "" {
		return list, nil
	}
	kinds := snap.linkTargets(directive, option)
	if kinds == nil {
		return list, nil
	}
	return s.completeIDs(snap, t, ls, off, kinds, list), nil
}

// codeMarkers are the markers of the code tags (docs/codetags.md) after
// which requirement IDs are completed in a source file.
var codeMarkers = []string{"req-Id:", "req-traceability:", "@need-ids:", "lobster-trace:"}

// completeIDs adds the IDs of nodes of the given kinds that start with
// the entry being typed at off (back to the last separator or blank of
// the line that starts at ls).
func (s *server) completeIDs(snap snapshot, t *text, ls, off int, kinds []string, list *protocol.CompletionList) *protocol.CompletionList {
	enc := s.encoding()
	// The entry being typed: back to the last separator or blank.
	a := off
	for a > ls && !strings.ContainsRune(",;| \t:", rune(t.src[a-1])) {
		a--
	}
	prefix := strings.ToLower(string(t.src[a:off]))
	r := t.rangeOf(span{a, off}, enc)
	snap.each(func(id, kind, title string) bool {
		if !slices.Contains(kinds, kind) || !strings.HasPrefix(strings.ToLower(id), prefix) {
			return true
		}
		if len(list.Items) == maxCompletions {
			list.IsIncomplete = true
			return false
		}
		it := protocol.CompletionItem{
			Label: id, Kind: protocol.CompletionItemKindReference,
			TextEdit: &protocol.TextEdit{Range: r, NewText: id},
		}
		if title != "" {
			it.Detail = protocol.NewOptional(title)
		}
		list.Items = append(list.Items, it)
		return true
	})
	return list
}

// enclosing finds, for line li, the seg directive whose option block it
// is in (by the text, so it works on lines the analysis has not seen),
// the option the line's value belongs to ("" when none), and the
// indentation of the block's options (-1 when it has none yet).
func (s *server) enclosing(t *text, li int) (directive, option string, optIndent int, ok bool) {
	optIndent = -1
	line := func(l int) string { return string(t.src[t.lines[l]:t.lineEnd(l)]) }
	cur := line(li)
	curIndent := indentOf([]byte(cur))
	for l := li; l >= 0; l-- {
		x := line(l)
		if strings.TrimSpace(x) == "" {
			if l == li {
				continue
			}
			return "", "", -1, false // options end at the first blank line
		}
		if m := directiveLine.FindStringSubmatch(x); m != nil {
			if l == li {
				return "", "", -1, false
			}
			if indentOf([]byte(x)) >= curIndent {
				return "", "", -1, false
			}
			return strings.ToLower(m[2]), option, optIndent, true
		}
		if m := fieldMarker.FindStringSubmatch(x); m != nil {
			optIndent = indentOf([]byte(m[1]))
			if option == "" && (l < li || len(x) >= len(m[0]) && t.lines[l]+len(m[0]) <= t.lineEnd(l)) {
				if l < li || true {
					option = strings.ToLower(m[2])
				}
			}
		}
	}
	return "", "", -1, false
}

func (s *server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	snap := s.current(ctx)
	if snap == nil {
		return nil, nil
	}
	file, ok := s.path(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	t := s.docText(snap, file)
	enc := s.encoding()
	lo, hi := t.offset(p.Range.Start, enc), t.offset(p.Range.End, enc)
	s.mu.Lock()
	set := s.set
	s.mu.Unlock()
	lsp := s.lspDiagnostics(snap, file, set, enc, s.isOpen(file))
	fs := snap.findings(file)
	out := []protocol.CommandOrCodeAction{}
	quick := protocol.CodeActionKindQuickFix
	yes := true
	di := 0
	for _, f := range fs {
		var diag []protocol.Diagnostic
		// lspDiagnostics keeps the findings' order, less any turned off.
		for di < len(lsp) && lsp[di].Range != t.rangeOf(f.span, enc) {
			di++
		}
		if di < len(lsp) {
			diag = []protocol.Diagnostic{lsp[di]}
		}
		if f.span.end < lo || f.span.start > hi {
			continue
		}
		switch {
		case f.suggest != "":
			out = append(out, &protocol.CodeAction{
				Title: fmt.Sprintf("Change to %q", f.suggest), Kind: &quick, Diagnostics: diag, IsPreferred: &yes,
				Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
					s.uriOf(file): {{Range: t.rangeOf(f.fix, enc), NewText: f.suggest}},
				}},
			})
		case f.code == "stale-link":
			// seg review --accept, for this one link.
			if lock, sp, rev, ok := snap.accept(file, f.span.start); ok {
				lt := s.docText(snap, lock)
				out = append(out, &protocol.CodeAction{
					Title: fmt.Sprintf("Accept the link: pin it in seg.lock to its target's revision %s", rev), Kind: &quick, Diagnostics: diag,
					Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
						s.uriOf(lock): {{Range: lt.rangeOf(sp, enc), NewText: rev}},
					}},
				})
			}
		case f.code == "schema-missing-option":
			if a := s.optionSkeleton(snap, file, t, f); a != nil {
				a.Diagnostics = diag
				out = append(out, a)
			}
		case f.code == "link-condition-failed":
			if a := s.conditionUpdate(snap, file, t, f); a != nil {
				a.Diagnostics = diag
				out = append(out, a)
			}
		case f.code == "missing-id":
			if a := s.idSkeleton(snap, file, t, f); a != nil {
				a.Diagnostics = diag
				out = append(out, a)
			}
		}
	}
	return out, nil
}

var trailingNumber = lazyre.New(`^(.*?)(\d+)$`)

// idSkeleton adds an :id: line to a node that has none, with an ID that
// follows the pattern of its siblings' IDs and is not taken.
func (s *server) idSkeleton(snap snapshot, file string, t *text, f finding) *protocol.CodeAction {
	var n *node
	nodes := snap.nodes(file)
	for i := range nodes {
		if nodes[i].span.start <= f.span.start && f.span.start <= nodes[i].span.end || nodes[i].idSpan == f.span {
			n = &nodes[i]
			break
		}
	}
	if n == nil {
		return nil
	}
	id := s.freshID(snap, nodes, n)
	enc := s.encoding()
	var edit protocol.TextEdit
	if n.hasIDOpt {
		// An empty :id: value: fill it.
		for _, o := range n.options {
			if o.name == "id" {
				edit = protocol.TextEdit{Range: t.rangeOf(span{o.nameSpan.end + 1, o.nameSpan.end + 1}, enc), NewText: " " + id}
			}
		}
	} else {
		// A new option line: before the first option, else after the
		// directive's title lines, indented as the options are.
		li := lineIndex(t.lines, n.span.start)
		indent := strings.Repeat(" ", indentOf(t.src[t.lines[li]:n.span.start])+3)
		at := -1
		if len(n.options) > 0 {
			ol := lineIndex(t.lines, n.options[0].nameSpan.start)
			at = t.lines[ol]
			indent = string(t.src[at : n.options[0].nameSpan.start-1])
		} else {
			l := li + 1
			for l < len(t.lines) && strings.TrimSpace(string(t.src[t.lines[l]:t.lineEnd(l)])) != "" {
				l++
			}
			if l < len(t.lines) {
				at = t.lines[l]
			}
		}
		newText := indent + ":id: " + id + "\n"
		if at < 0 { // the directive ends the file
			at = len(t.src)
			newText = "\n" + indent + ":id: " + id
		}
		edit = protocol.TextEdit{Range: t.rangeOf(span{at, at}, enc), NewText: newText}
	}
	kind := protocol.CodeActionKindQuickFix
	return &protocol.CodeAction{
		Title: fmt.Sprintf("Add :id: %s", id), Kind: &kind,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{s.uriOf(file): {edit}}},
	}
}

// freshID proposes an unused ID: the prefix of the file's other IDs of
// the same kind with the next number, else the directive name in upper
// case with a number.
func (s *server) freshID(snap snapshot, nodes []node, n *node) string {
	prefix, width, next := strings.ToUpper(n.directive)+"-", 3, 1
	for _, m := range nodes {
		if m.kind != n.kind || m.id == "" {
			continue
		}
		if sm := trailingNumber.FindStringSubmatch(m.id); sm != nil {
			v, _ := strconv.Atoi(sm[2])
			if sm[1] != prefix {
				prefix, width, next = sm[1], len(sm[2]), v+1
			} else if v+1 > next {
				next = v + 1
			}
		}
	}
	for {
		id := fmt.Sprintf("%s%0*d", prefix, width, next)
		if _, taken := snap.lookup(id); !taken && snap.validID(id) {
			return id
		}
		if !snap.validID(id) {
			return id // the pattern is the writer's to meet
		}
		next++
	}
}

func (s *server) PrepareRename(ctx context.Context, p *protocol.PrepareRenameParams) (protocol.PrepareRenameResult, error) {
	snap, _, t, tg, ok := s.targetOf(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return nil, errRequestFailed("no ID here to rename")
	}
	if _, ok := snap.lookup(tg.id); !ok {
		return nil, errRequestFailed("%q is not defined in the tree, so there is nothing to rename", tg.id)
	}
	return &protocol.PrepareRenamePlaceholder{Range: t.rangeOf(tg.span, s.encoding()), Placeholder: tg.id}, nil
}

func (s *server) Rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	snap, file, t, off, ok := s.at(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return nil, errRequestFailed("the document is not part of the tree")
	}
	tg, ok := targetAt(snap, file, t, off)
	if !ok {
		return nil, errRequestFailed("no ID here to rename")
	}
	def, ok := snap.lookup(tg.id)
	if !ok {
		return nil, errRequestFailed("%q is not defined in the tree, so there is nothing to rename", tg.id)
	}
	to := p.NewName
	if to == tg.id {
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{}}, nil
	}
	if !snap.validID(to) {
		return nil, errRequestFailed("%q is not a valid ID in this tree", to)
	}
	if n, taken := snap.lookup(to); taken {
		return nil, errRequestFailed("%q is already the ID of the %s at %s", to, n.kind, n.file)
	}
	enc := s.encoding()
	texts := map[string]*text{file: t}
	edits := map[uri.URI][]protocol.TextEdit{}
	add := func(f string, sp span) {
		loc := s.location(snap, f, sp, texts)
		edits[loc.URI] = append(edits[loc.URI], protocol.TextEdit{Range: loc.Range, NewText: to})
	}
	_ = enc
	if def.hasIDOpt {
		add(def.file, def.idSpan)
	}
	for _, r := range snap.references(tg.id) {
		add(r.file, r.span)
	}
	return &protocol.WorkspaceEdit{Changes: edits}, nil
}
