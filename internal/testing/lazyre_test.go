package testing_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every expression the product declares with lazyre.New compiles: they
// are compiled on first use (internal/lazyre), so a broken one would
// panic in the middle of a run instead of at start-up. The argument must
// be a string literal or a constant of the same package declared as one.
func TestEveryExpressionCompiles(t *testing.T) {
	fset := token.NewFileSet()
	type call struct {
		pos token.Position
		arg ast.Expr
	}
	var calls []call
	consts := map[string]map[string]string{} // folder -> name -> value
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != "../..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		dir := filepath.Dir(p)
		if consts[dir] == nil {
			consts[dir] = map[string]string{}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, _ := strconv.Unquote(lit.Value)
							consts[dir][name.Name] = v
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "lazyre" && len(n.Args) == 1 {
						calls = append(calls, call{fset.Position(n.Pos()), n.Args[0]})
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The product declares some forty; finding few means the walk broke.
	if len(calls) < 30 {
		t.Fatalf("found %d calls of lazyre.New", len(calls))
	}
	for _, c := range calls {
		var expr string
		switch a := c.arg.(type) {
		case *ast.BasicLit:
			expr, _ = strconv.Unquote(a.Value)
		case *ast.Ident:
			v, ok := consts[filepath.Dir(c.pos.Filename)][a.Name]
			if !ok {
				t.Errorf("%s: lazyre.New(%s): not a string constant of the package", c.pos, a.Name)
				continue
			}
			expr = v
		default:
			t.Errorf("%s: lazyre.New takes a string literal or constant", c.pos)
			continue
		}
		if _, err := regexp.Compile(expr); err != nil {
			t.Errorf("%s: %v", c.pos, err)
		}
	}
}
