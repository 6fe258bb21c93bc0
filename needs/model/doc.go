// Package model holds what of a sphinx-needs project the parser reads
// need directives by, as plain tables, and the pure functions of
// sphinx-needs' syntax the parser calls: the need types (directive,
// prefix, the seg kind seg.toml maps them onto), the link types (their
// options, conditions and mapping onto seg's edges), the options a need
// takes, the ID rules (id_required, id_regex, the generated IDs of
// HashedID) and the title rules (title_from_content, max_title_length);
// SplitLinks splits a link value as sphinx-needs does.
//
// It is a leaf beside diag and source. Package needs reads a project
// (conf.py, ubproject.toml, seg.toml's [needs] table) and fills its
// Tables; the parser is given only those (parser.Config.Needs), so it
// does not import package needs, its readers or its filter engine
// (docs/structure.md, "Decisions").
package model
