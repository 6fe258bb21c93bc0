// Package testing holds what only seg's tests import: the reference
// implementations the product is held to (revref: the rules of evidence
// that still applies, written apart from evaluate), tree and edit
// generators (segtest), and random seg.lock files (randlock). Nothing in
// a product package imports them; TestTestingIsTestOnly keeps it so.
// Its own tests hold the module's structure: the floors docs/structure.md
// lists (TestLayersAreDocumented) and no two folders importing each other
// (TestFoldersDoNotImportEachOther).
package testing
