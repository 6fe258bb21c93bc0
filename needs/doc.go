// Package needs is seg's support for sphinx-needs projects
// (docs/sphinx-needs.md): the project model (need types, link types,
// fields), the readers of the files a project keeps it in (ubproject.toml;
// conf.py, through a reader of Python literals that never runs Python),
// the syntax of link values, and the needs.json format.
//
// # Where it sits
//
// The parser must know, while it reads a file, which directives are needs
// and how a link value splits; graph, report and cli need the same
// project. So needs is a low-level package, beside source and diag: it
// imports only them, internal/cfgfile and the TOML reader, and parser,
// graph, report, config and cli import it. Nothing here knows a parsed
// node, a graph or a check; the packages that hold those call in:
//
//   - parser calls SplitLinks on a link value (its lines joined) and gets
//     entries as offsets into it, which it alone can map back to exact
//     source spans (a value may span lines and table cells);
//   - graph resolves the entries into edges (graph/needs.go);
//   - report reads its graph into a Document, and Document.Map lays out
//     the needs.json file;
//   - config reads seg.toml and hands its [needs] table (Settings) to Load.
//
// The other layout the redesign allowed, needs above parser with the
// parser defining a small directive description that needs fills, would
// have put the project model above graph, which reads it to resolve links
// (allow_dead_links, seg.toml's mapping), and split the link syntax from
// the model it depends on (which link types take seg's states). Keeping
// the model, the syntax, the readers and the file format together, below
// everything that uses them, keeps each sphinx-needs rule in one place and
// every import pointing down.
package needs
