package parser

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar over the line lexer's tokens. It is LL(1) and total: every
// token sequence the lexer can produce parses, so a participle error is
// always a bug in seg, never a problem in the user's file. Text that holds
// no node makes no token (the lexer has already decided RST's block
// structure), so the grammar is only the nesting of seg directives:
//
//	File = Node* .
//	Node = Directive (Body Node+ End)? .

type astFile struct {
	Nodes []*astNode `parser:"@@*"`
}

type astNode struct {
	// Pos is the Directive token's: participle fills it without a
	// capture. The node's title, options and body stay with the lexer
	// (scanner.nodes), so that participle, whose cost is per capture and
	// per token, only builds the nesting.
	Pos   lexer.Position
	Nodes []*astNode `parser:"Directive ( Body @@+ End )?"`
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
