package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/seg-trace/seg/internal/lazyre"
)

// Quick fixes of the metamodel's findings (docs/editors.md, "Metamodel
// findings"): the two with one fix. A mandatory option that is missing
// gets its option line, empty, for the writer to fill; a link condition
// FIELD == VALUE that no longer holds is rewritten to the target's value
// now, as seg review --accept rewrites it (graph.RewriteCondition).

// missingOption is the wording of schema-missing-option (rules, S-CORE's
// own message): the option is between backquotes.
var missingOption = lazyre.New("is missing required attribute: `([^`]+)`$")

// optionSkeleton inserts the line ":NAME: " of the missing option of a
// schema-missing-option finding into the need's option block, after its
// last option line (its value's last line), indented as its options are.
// The body ("content") has no option line: no fix.
func (s *server) optionSkeleton(snap snapshot, file string, t *text, f finding) *protocol.CodeAction {
	m := missingOption.FindStringSubmatch(f.message)
	if m == nil || m[1] == "content" || m[1] == "title" || m[1] == "id" {
		return nil
	}
	name := m[1]
	var n *node
	nodes := snap.nodes(file)
	for i := range nodes {
		if nodes[i].span.start <= f.span.start && f.span.start <= nodes[i].span.end {
			n = &nodes[i]
			break
		}
	}
	// A need the rules read has an :id: (without one it is missing-id,
	// and no need): its option block is where the line goes.
	if n == nil || len(n.options) == 0 {
		return nil
	}
	first := n.options[0]
	fl := lineIndex(t.lines, first.nameSpan.start)
	indent := string(t.src[t.lines[fl] : first.nameSpan.start-1])
	after := fl // the line the new one follows
	for _, o := range n.options {
		end := max(o.nameSpan.end, o.valueSpan.end)
		after = max(after, lineIndex(t.lines, end))
	}
	line := indent + ":" + name + ": "
	var at int
	var newText string
	if after+1 < len(t.lines) {
		at, newText = t.lines[after+1], line+"\n"
	} else {
		// The option block ends the file, without a line break.
		at, newText = len(t.src), "\n"+line
	}
	enc := s.encoding()
	kind := protocol.CodeActionKindQuickFix
	return &protocol.CodeAction{
		Title: fmt.Sprintf("Add the mandatory option :%s:", name), Kind: &kind,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
			s.uriOf(file): {{Range: t.rangeOf(span{at, at}, enc), NewText: newText}},
		}},
	}
}

// conditionUpdate rewrites the condition of the link entry of a
// link-condition-failed finding to the target's current value.
func (s *server) conditionUpdate(snap snapshot, file string, t *text, f finding) *protocol.CodeAction {
	sp, lit, now, ok := snap.conditionFix(file, f.span.start)
	if !ok {
		return nil
	}
	enc := s.encoding()
	kind := protocol.CodeActionKindQuickFix
	yes := true
	return &protocol.CodeAction{
		Title: fmt.Sprintf("Update the condition to [%s]", now), Kind: &kind, IsPreferred: &yes,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
			s.uriOf(file): {{Range: t.rangeOf(sp, enc), NewText: lit}},
		}},
	}
}
