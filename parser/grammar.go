package parser

import (
	"sync"

	"github.com/alecthomas/participle/v2"
)

// The grammar over the line lexer's tokens. It is LL(1) and total: every
// token sequence the lexer can produce parses, so a participle error is
// always a bug in seg, never a problem in the user's file. Text that holds
// no node makes no token (the lexer has already decided RST's block
// structure), so the grammar is only the nesting of seg directives:
//
//	File  = Item* .
//	Item  = Run | Open Item+ End .
//
// A Run is one or more seg directives in a row, none of whose content
// holds a seg directive (most nodes: there is nothing for the grammar to
// nest in them); Open is a directive whose content does, and End closes
// that content.

type astFile struct {
	Items []*astItem `parser:"@@*"`
}

// astItem is a Run when it has no Nodes (an Open has one at least). The
// nodes' titles, options, bodies and positions stay with the lexer
// (scanner.nodes, in document order, and scanner.runs, the length of
// each Run), so that participle, whose cost is per capture and per token,
// only builds the nesting.
type astItem struct {
	Nodes []*astItem `parser:"Run | Open @@+ End"`
}

var (
	grammarOnce sync.Once
	grammar     *participle.Parser[astFile]
	grammarErr  error
)

// theParser builds the parser once; participle parsers are safe to share
// between goroutines, and building one is costly.
func theParser() (*participle.Parser[astFile], error) {
	grammarOnce.Do(func() {
		// A single huge file may hold more nodes than participle's default
		// limit on repetitions.
		participle.MaxIterations = 1 << 30
		grammar, grammarErr = participle.Build[astFile](
			participle.Lexer(lineDef{}),
			participle.UseLookahead(1),
		)
	})
	return grammar, grammarErr
}
