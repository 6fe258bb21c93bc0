#!/usr/bin/env python3
"""Dump every seg directive that docutils finds in a tree of .rst files.

docutils is the reference for where directives are (spec/format.md), so this
script is the authority the Go differential test (parser/differential_test.go)
compares seg's parser with.

Usage:

    python3 parser/testdata/docutils/dump.py ROOT [--names a,b] [--literal c,d]

Run it with a python3 that has docutils (Debian: apt-get install
python3-docutils, then /usr/bin/python3). It prints one JSON object per line,
sorted by file and line:

    {"file": "a/b.rst", "directive": "sreq", "line": 12, "id": "SEG-1",
     "parent_line": 3, "parent_id": "TS-1", "title": "...",
     "options": [["id", "SEG-1"], ...]}

- file: relative to ROOT, forward slashes.
- directive: the directive name, lower-cased (docutils is case-insensitive).
- line: 1-based line of the ".." that starts the directive, counted in the
  lines docutils reads (see "Reading files" below).
- id: the :id: option's value ("" when absent), white space runs collapsed.
- parent_line / parent_id: the innermost enclosing seg directive, or 0 / "".
- title: the directive argument, white space runs collapsed.
- options: (name, value) in source order; names lower-cased as docutils
  does, values with white space runs collapsed ("" for an empty value).

The first line names the docutils version: {"docutils": "0.19"}.

Other record kinds:

- {"file": F, "directive": D, "line": L, "error": MSG}: docutils saw a seg
  directive there but rejected its header ("invalid option block": a line
  that is not a field among the options; a duplicate option; a field name
  of several words), so docutils (and Sphinx) make no node of it, nor of
  anything in its content.
- {"file": F, "invalid_encoding": true}: the file is not UTF-8; docutils
  was not run on it.
- {"file": F, "line": L, "line_too_long": N}: line L is N characters long
  (after tab expansion), more than docutils' line_length_limit (10000 by
  default, as in Sphinx): docutils then parses nothing of the file, so it
  has no nodes.

Exit status: 0; 1 when docutils itself raised on a file (the records found
before are kept) or when a recorded line does not hold its directive (a bug
of this script); both are explained on stderr. 3 when docutils is missing.

How docutils is set up here:

- The seg directive names (req, sys, sreq, test, impl, outcome, waiver, plus
  --names) accept one optional argument with spaces, any option, and content
  parsed as RST (nested_parse), so nesting is seen.
- Literal-content directives (the spec's list, the sphinx-needs filter and
  diagram directives, plus --literal) accept any argument and option and
  ignore their content.
- "include" is stubbed: it reads no file and its content is ignored.
- Every other name docutils knows keeps docutils' own behaviour (note,
  container, topic, list-table, image, line-block, ...).
- sphinx-needs' needextend and needimport (--instructions) take one
  required argument, any option and no content (docutils rejects one with
  content); they are recorded like the seg directives, with id "".
  list2need (among --instructions) takes no argument, any option and
  content it does not parse (its list).
- Every name docutils does not know (only, tab, dropdown, ...)
  is a generic container like the seg directives: one optional argument, any
  option, content parsed as RST.
- report_level and halt_level are 5: docutils' warnings and errors are
  silenced and never abort; an unknown role (a Sphinx one) is just an error
  node.

Reading files: as Sphinx reads a source with current docutils, whose
FileInput opens a file in text mode when it is given an encoding (Sphinx
always gives its source_encoding, utf-8-sig by default) and returns the text
as read: a leading BOM is dropped and CRLF and CR become LF, nothing else.
The parser then turns \\v and \\f into spaces and str.splitlines() cuts
lines -- which also cuts at \\x1c-\\x1e, \\x85, U+2028 and U+2029 -- and
every line has its tabs expanded to 8 columns and trailing white space
(Unicode's, so NBSP too) stripped. (Debian bookworm's docutils 0.19 also ran
str.splitlines() over the text in FileInput, before the parser, so it cut
lines at \\v and \\f too, one line more than an editor counts; later
FileInputs do that only when they guess the encoding, which Sphinx never
lets them.) A file that is not valid UTF-8 is reported as invalid_encoding.

Which files: every *.rst under ROOT, recursively, except names starting with
".", folders named _build, node_modules and vendor; symbolic links to
folders are not followed.
"""

import argparse
import json
import os
import re
import sys

try:
    import docutils
    import docutils.frontend
    import docutils.io
    import docutils.nodes as nodes
    import docutils.parsers.rst
    import docutils.statemachine
    import docutils.utils
    from docutils.parsers.rst import Directive, directives, states
except ImportError:  # pragma: no cover - reported to the caller
    sys.stderr.write("dump.py: docutils is not installed "
                     "(apt-get install python3-docutils)\n")
    sys.exit(3)

SEG_NAMES = ["req", "sys", "sreq", "test", "impl", "outcome", "waiver"]

LITERAL_NAMES = [
    # spec/format.md
    "code-block", "code", "sourcecode", "literalinclude", "parsed-literal",
    "math", "raw", "csv-table", "graphviz", "digraph", "graph", "plantuml",
    "uml", "mermaid", "highlight", "testcode", "testoutput", "doctest",
    # sphinx-needs' filter and diagram directives
    "needtable", "needlist", "needflow", "needpie", "needbar", "needgantt",
    "needsequence", "needextract", "needfilter", "needuml", "needarch",
    "list2need",
]

SKIP_DIRS = {"_build", "node_modules", "vendor"}


class AnyOptions(dict):
    """An option_spec that accepts every option name, value unchanged."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return _passthrough

    def get(self, key, default=None):
        return _passthrough

    def __bool__(self):
        return True


def _passthrough(value):
    return value


def norm(s):
    return " ".join((s or "").split())


class State:
    """What the dump of one file collects."""

    def __init__(self, relpath):
        self.relpath = relpath
        self.records = []
        self.seg_stack = []     # records of the enclosing seg directives
        self.starts = []        # one entry per seg directive being parsed
        self.problems = []


STATE = None  # the State of the file being parsed


class SegDirective(Directive):
    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    parse_content = True
    option_spec = AnyOptions()

    def run(self):
        st = STATE
        start = st.starts[-1] if st.starts else None
        if start is None or start["ran"]:
            # Not reached through Body.run_directive: should not happen.
            st.problems.append("%s:%d: seg directive %r run outside "
                               "run_directive" % (st.relpath, self.lineno,
                                                  self.name))
            line = self.lineno
        else:
            start["ran"] = True
            line = start["line"]
        parent = st.seg_stack[-1] if st.seg_stack else None
        presets = start["presets"] if start else {}
        opts = []
        for name, value in self.options.items():
            # A substitution definition presets "alt": not written by hand.
            if name in presets and presets[name] is value:
                continue
            opts.append([name, norm(value)])
        rec = {
            "file": st.relpath,
            "directive": self.name.lower(),
            "line": line,
            "id": norm(self.options.get("id")),
            "parent_line": parent["line"] if parent else 0,
            "parent_id": parent["id"] if parent else "",
            "title": norm(self.arguments[0]) if self.arguments else "",
            "options": opts,
        }
        if line != self.lineno:
            rec["docutils_lineno"] = self.lineno
        st.records.append(rec)
        if not self.has_content or not self.parse_content:
            return []
        node = nodes.container()
        st.seg_stack.append(rec)
        try:
            self.state.nested_parse(self.content, self.content_offset, node)
        finally:
            st.seg_stack.pop()
        return [node]


class InstructionDirective(SegDirective):
    """sphinx-needs' needextend and needimport (--instructions): one
    required argument, any option, no content (docutils rejects one with
    content, and it makes no node)."""
    required_arguments = 1
    optional_arguments = 0
    has_content = False


class List2needDirective(SegDirective):
    """sphinx-needs' list2need (--instructions): no argument, any option,
    content that is a list it makes needs of, not RST to parse here."""
    required_arguments = 0
    optional_arguments = 0
    parse_content = False


class ContainerDirective(Directive):
    """An unknown directive: its content is RST."""
    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = AnyOptions()

    def run(self):
        node = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class LiteralDirective(Directive):
    """A directive whose content is not RST: it holds no nodes."""
    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = AnyOptions()

    def run(self):
        return []


def install(seg_names, literal_names, instruction_names=()):
    seg = {n.lower() for n in seg_names}
    instructions = {n.lower() for n in instruction_names}
    literal = {n.lower() for n in literal_names} - seg - instructions
    orig_lookup = directives.directive

    def lookup(directive_name, language_module, document):
        n = directive_name.lower()
        if n in instructions:
            if n == "list2need":
                return List2needDirective, []
            return InstructionDirective, []
        if n in seg:
            return SegDirective, []
        if n in literal:
            return LiteralDirective, []
        if n == "include":
            return LiteralDirective, []
        cls, messages = orig_lookup(directive_name, language_module, document)
        if cls is None:
            return ContainerDirective, []
        return cls, messages

    directives.directive = lookup

    orig_run_directive = states.Body.run_directive

    def run_directive(self, directive, match, type_name, option_presets):
        if not issubclass(directive, SegDirective):
            return orig_run_directive(self, directive, match, type_name,
                                      option_presets)
        sm = self.state_machine
        lineno = sm.abs_line_number()
        try:
            _, offset = sm.input_lines.info(sm.line_offset)
        except IndexError:
            offset = None
        line = offset + 1 if offset is not None else lineno
        st = STATE
        start = {"line": line, "ran": False, "presets": option_presets}
        st.starts.append(start)
        try:
            result = orig_run_directive(self, directive, match, type_name,
                                        option_presets)
        finally:
            st.starts.pop()
        if not start["ran"]:
            msg = ""
            produced = result[0]
            if produced and isinstance(produced[0], nodes.system_message):
                paras = [c for c in produced[0].children
                         if isinstance(c, nodes.paragraph)]
                if paras:
                    msg = norm(paras[0].astext())
            st.records.append({
                "file": st.relpath,
                "directive": type_name.lower(),
                "line": line,
                "error": msg,
            })
        return result

    states.Body.run_directive = run_directive


def settings():
    try:
        s = docutils.frontend.get_default_settings(docutils.parsers.rst.Parser)
    except AttributeError:  # docutils < 0.18
        s = docutils.frontend.OptionParser(
            components=(docutils.parsers.rst.Parser,)).get_default_values()
    s.report_level = 5
    s.halt_level = 5
    s.warning_stream = docutils.io.NullOutput()
    s.file_insertion_enabled = False
    s.raw_enabled = False
    s.input_encoding = "utf-8-sig"
    s.input_encoding_error_handler = "strict"
    s.language_code = "en"
    s.tab_width = 8
    s.character_level_inline_markup = False
    s.pep_references = False
    s.rfc_references = False
    return s


def read(path):
    """Read a file as current docutils' FileInput does when given an
    encoding, as Sphinx always gives one: text mode, nothing changed but
    the BOM and the line ends (see "Reading files" above)."""
    with open(path, encoding="utf-8-sig", errors="strict") as f:
        return f.read()


def walk(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and d not in SKIP_DIRS
                             and not os.path.islink(os.path.join(dirpath, d)))
        for f in filenames:
            if f.startswith(".") or not f.endswith(".rst"):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            out.append((rel, full))
    out.sort()
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("--names", default="",
                    help="more seg directive names, comma-separated")
    ap.add_argument("--literal", default="",
                    help="more literal-content directive names, "
                         "comma-separated")
    ap.add_argument("--instructions", default="",
                    help="sphinx-needs instruction directive names "
                         "(needextend, needimport), comma-separated")
    args = ap.parse_args(argv)
    extra = [n for n in args.names.split(",") if n.strip()]
    lit = [n for n in args.literal.split(",") if n.strip()]
    ins = [n for n in args.instructions.split(",") if n.strip()]
    install(SEG_NAMES + extra, LITERAL_NAMES + lit, ins)
    parser = docutils.parsers.rst.Parser()
    base = settings()
    out = []
    problems = []
    global STATE
    for rel, full in walk(args.root):
        try:
            text = read(full)
        except UnicodeDecodeError:
            out.append({"file": rel, "invalid_encoding": True})
            continue
        STATE = State(rel)
        document = docutils.utils.new_document(rel, base)
        try:
            parser.parse(text, document)
        except Exception as e:  # a docutils crash must not hide other files
            STATE.problems.append("%s: docutils raised %s: %s"
                                  % (rel, type(e).__name__, e))
        lines = docutils.statemachine.string2lines(
            text, base.tab_width, convert_whitespace=True)
        limit = getattr(base, "line_length_limit", 10000)
        for i, line in enumerate(lines):
            if len(line) > limit:
                # docutils refuses the whole file: no node at all.
                out.append({"file": rel, "line": i + 1,
                            "line_too_long": len(line)})
                break
        for rec in STATE.records:
            i = rec["line"] - 1
            # The ".." or, in a substitution definition, the name's
            # closing bar or the start of the line (the directive may
            # follow the name on the next line).
            pat = (r"(\.\.\s+(\|[^|]*\|\s+)?|\|\s+|^\s*)"
                   + re.escape(rec["directive"]) + r"\s?::")
            if not (0 <= i < len(lines) and re.search(pat, lines[i], re.I)):
                STATE.problems.append(
                    "%s:%d: %s directive is not on this line: %r"
                    % (rel, rec["line"], rec["directive"],
                       lines[i] if 0 <= i < len(lines) else None))
        out.extend(STATE.records)
        problems.extend(STATE.problems)
        STATE = None
    out.sort(key=lambda r: (r["file"], r.get("line", 0)))
    out.insert(0, {"docutils": docutils.__version__})
    w = sys.stdout.buffer  # UTF-8 whatever the locale
    for r in out:
        w.write((json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
                .encode("utf-8"))
    w.flush()
    for p in problems:
        sys.stderr.write("dump.py: " + p + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
