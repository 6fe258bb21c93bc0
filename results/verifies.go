package results

import (
	"sort"
	"strings"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// VerifyProperty is a JUnit property (a go test attribute, t.Attr) whose
// values name the requirements a test case verifies (docs/results.md,
// "Test cases that name requirements"). Partial: the case verifies them
// only in part (S-CORE's PartiallyVerifies).
type VerifyProperty struct {
	Name    string
	Partial bool
}

// DefaultVerifyProperties are the properties read when the configuration
// names none: S-CORE's FullyVerifies and PartiallyVerifies (written by
// pytest's record_property and GoogleTest's RecordProperty),
// sphinx-test-reports' verifies, LOBSTER's lobster-trace, and seg's own
// seg.verifies.
var DefaultVerifyProperties = []VerifyProperty{
	{Name: "FullyVerifies"},
	{Name: "PartiallyVerifies", Partial: true},
	{Name: "verifies"},
	{Name: "lobster-trace"},
	{Name: "seg.verifies"},
}

// TestSuffix ends the ID of the test specification made for a case that
// names requirements (TestID).
const TestSuffix = "#test"

// TestID is the ID of the test specification made for the case called
// name in the results file at path, when its properties name the
// requirements it verifies: "<path>::<name>#test". Its outcomes keep
// their own IDs (OutcomeID), which never end in "#test".
func TestID(path, name string) string {
	return path + "::" + name + TestSuffix
}

// verified is one requirement a case names in a verification property.
type verified struct {
	id      string
	partial bool
}

// verifiedBy lists the requirements c names in the properties props, in
// ID order, each once; a requirement named both fully and partially is
// verified fully.
func verifiedBy(c *Case, props []VerifyProperty) []verified {
	if len(c.Properties) == 0 {
		return nil
	}
	var out []verified
	for _, p := range props {
		for _, v := range c.Properties[p.Name] {
			for _, e := range splitIDs(v) {
				out = append(out, verified{id: e, partial: p.Partial})
			}
		}
	}
	if len(out) < 2 {
		return out
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].id != out[j].id {
			return out[i].id < out[j].id
		}
		return !out[i].partial && out[j].partial
	})
	dedup := out[:1]
	for _, v := range out[1:] {
		if v.id != dedup[len(dedup)-1].id {
			dedup = append(dedup, v)
		}
	}
	return dedup
}

// splitIDs splits a property value into IDs: separated by ",", ";", "|"
// or white space (S-CORE writes "REQ_A, REQ_B"; LOBSTER one ID a
// property).
func splitIDs(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool {
		return r == ',' || r == ';' || r == '|' || r == ' ' || r == '\t' || r == '\r' || r == '\n'
	})
}

// madeTests are the test specifications made for the cases of the
// sources read, in the order their cases were first read.
type madeTests struct {
	nodes []parser.Node
	index map[string]int // by ID
}

// test returns the ID of the test specification for case c of src,
// which names reqs, making it on the first run of the case.
func (m *madeTests) test(src *Source, c *Case, reqs []verified) string {
	id := TestID(src.Path, c.Name)
	if m.index == nil {
		m.index = map[string]int{}
	}
	if _, ok := m.index[id]; ok {
		return id
	}
	m.index[id] = len(m.nodes)
	m.nodes = append(m.nodes, testSpecNode(id, c, reqs))
	return id
}

// testSpecNode is the test specification made for case c, which names
// reqs: Kind Test, Directive "test", Title the case name, every option
// and link at the case; the verifies links of partial verification are
// marked Partial.
func testSpecNode(id string, c *Case, reqs []verified) parser.Node {
	at := source.At(c.Pos)
	ls := make([]parser.Link, len(reqs))
	ids := make([]string, len(reqs))
	for i, r := range reqs {
		ls[i] = parser.Link{ID: r.id, Span: at, Partial: r.partial}
		ids[i] = r.id
	}
	n := parser.Node{
		Kind:      parser.Test,
		Directive: "test",
		ID:        id,
		Title:     c.Name,
		Pos:       c.Pos,
		Options: []parser.Option{
			{Name: "id", Value: id, Pos: c.Pos, ValuePos: c.Pos},
			{Name: "verifies", Value: strings.Join(ids, ", "), Pos: c.Pos, ValuePos: c.Pos, Links: ls},
		},
		Parent:      -1,
		FromResults: true,
		CaseNames:   c.Names(),
	}
	n.Revision = revision.Of(parser.Canonical(&n, parser.LinkOptions(parser.Test)))
	return n
}

func (s *Source) verifyProperties() []VerifyProperty {
	if s.Verify == nil {
		return DefaultVerifyProperties
	}
	return s.Verify
}
