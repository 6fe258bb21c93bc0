// Package needs is seg's support for sphinx-needs projects
// (docs/sphinx-needs.md): the project model (need types, link types,
// fields), the readers of the files a project keeps it in (ubproject.toml;
// conf.py, through a reader of Python literals that never runs Python),
// the syntax of link values, and the needs.json format.
//
// # Where it sits
//
// The parser must know, while it reads a file, which directives are needs,
// which options a need takes and how a link value splits; graph, report
// and cli need the whole project. So what the parser reads lives in a
// leaf below both, needs/model: the plain tables (NeedType, LinkType,
// model.Tables, which a Project holds and hands the parser as
// &Project.Tables) and the pure functions over them (SplitLinks,
// HashedID, ...). The names of model this package repeats (NeedType,
// LinkType, Entry, SplitLinks, ...) are aliases and thin wrappers, for
// the packages above the parser. needs itself stands above model, beside
// the parser, which does not import it: the readers of conf.py and
// ubproject.toml, the filter engine and needs.json are no concern of
// the parser's. Nothing here knows a parsed node, a graph or a check;
// the packages that hold those call in:
//
//   - parser calls model.SplitLinks on a link value (its lines joined)
//     and gets entries as offsets into it, which it alone can map back to
//     exact source spans (a value may span lines and table cells);
//   - graph resolves the entries into edges (graph/needs.go), with the
//     Project (config.Config.Needs) graph.Build is given;
//   - report reads its graph into a Document, and Document.Map lays out
//     the needs.json file;
//   - config reads seg.toml and hands its [needs] table (Settings) to Load.
//
// The other layout the redesign allowed, needs above parser with the
// parser defining a small directive description that needs fills, would
// have split the link syntax from the model it depends on (which link
// types take seg's states). Keeping the tables and the syntax together in
// model, and the readers, the filter engine and the file format in
// needs, keeps each sphinx-needs rule in one place and every import
// pointing down.
package needs
