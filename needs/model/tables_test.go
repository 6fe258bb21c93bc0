package model

import (
	"slices"
	"testing"
)

// The zero Tables are an empty project that the Add methods fill; a
// type or link added again replaces the first in its place; nil Tables
// answer as no project.
func TestTables(t *testing.T) {
	var n Tables
	if n.Type("req") != nil || n.Link("links") != nil || n.Takes("status") || !n.Takes("id") {
		t.Fatal("empty tables take something")
	}
	first := n.AddType(NeedType{Directive: "REQ", Prefix: "R_"})
	n.AddType(NeedType{Directive: "spec"})
	again := n.AddType(NeedType{Directive: "req", Prefix: "Q_"})
	if again != first || len(n.Types) != 2 || n.Type("req").Prefix != "Q_" || n.Types[0] != first {
		t.Errorf("AddType again: %+v", n.Types)
	}
	n.AddLink(LinkType{Option: "Tests", Edge: "verifies"})
	n.AddOption("Version")
	n.AddOption("version")
	n.AddCoreOption("status")
	if !n.Takes("tests") || !n.Takes("version") || !n.Takes("status") || n.Takes("other") {
		t.Errorf("options %v", n.Options())
	}
	if !slices.Equal(n.Extra, []string{"version"}) || !n.IsExtra("version") || n.IsExtra("status") || n.IsExtra("tests") {
		t.Errorf("extra %v", n.Extra)
	}
	if !n.Link("tests").Stateful() || n.Link("tests").StateOption() != "verifies" {
		t.Error("a verifies link type takes states")
	}
	n.RemoveTypes()
	if n.Type("req") != nil || len(n.Types) != 0 {
		t.Error("RemoveTypes kept a type")
	}
	var none *Tables
	if none.Type("req") != nil || none.Link("links") != nil || none.Takes("id") || none.IsExtra("x") || none.Fingerprint() != "" {
		t.Error("nil tables answer as a project")
	}
}

// Every form of a link type's mapping that changes which entries take a
// state changes the fingerprint, and so the parse cache's key.
func TestFingerprintTakesTheMapping(t *testing.T) {
	forms := []LinkType{
		{Option: "links"},
		{Option: "links", Edge: "refines"},
		{Option: "links", Edge: "verifies"},
		{Option: "links", Auto: true},
		{Option: "links", Edges: []string{"refines"}},
		{Option: "links", Edges: []string{"implements", "refines"}},
		{Option: "links", NoConditions: true},
	}
	seen := map[string]int{}
	for i, l := range forms {
		var n Tables
		n.AddLink(l)
		fp := n.Fingerprint()
		if j, ok := seen[fp]; ok {
			t.Errorf("%+v fingerprints like %+v", forms[i], forms[j])
		}
		seen[fp] = i
	}
}
