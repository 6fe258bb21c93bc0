package lazyre

import (
	"regexp"
	"slices"
	"sync"
	"testing"
)

// New compiles nothing; the first use compiles once, for every goroutine
// alike, and the methods are those of the compiled expression.
func TestCompiledOnceOnFirstUse(t *testing.T) {
	r := New(`^(\w+)-(\d+)$`)
	if r.re != nil {
		t.Fatal("New compiled the expression")
	}
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = r.Get()
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] || g == nil {
			t.Fatalf("Get gave %v and %v", g, got[0])
		}
	}
	re := regexp.MustCompile(r.String())
	for _, s := range []string{"REQ-12", "req-x", ""} {
		if r.MatchString(s) != re.MatchString(s) || !slices.Equal(r.FindStringSubmatch(s), re.FindStringSubmatch(s)) ||
			r.Match([]byte(s)) != re.Match([]byte(s)) || r.ReplaceAllString(s, "$2") != re.ReplaceAllString(s, "$2") {
			t.Errorf("%q: the methods differ from regexp's", s)
		}
	}
}

// An expression that does not compile panics when first used, as
// regexp.MustCompile does, not when declared.
func TestBadExpressionPanicsOnUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	r.MatchString("x")
}
