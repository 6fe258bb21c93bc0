// Package parser reads reStructuredText as docutils does, as far as seg
// needs it: a hand-written lexer puts every physical RST rule (tabs,
// indentation, comments, literal blocks, directive headers) into tokens,
// and a small participle grammar over that stream finds seg's directives
// and the sphinx-needs need types a project declares. What it returns is
// a File: nodes with their options and link entries, each at an exact
// position in a source.FileSet, and the diagnostics of the text itself.
// Nothing outside this package imports participle.
package parser
