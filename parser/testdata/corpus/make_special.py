#!/usr/bin/env python3
"""Write the corpus files whose exact bytes matter (CRLF, CR, tabs, BOM,
Unicode white space, line separators, invalid UTF-8).

Run from anywhere: python3 parser/testdata/corpus/make_special.py
The files are checked in; rerun only after changing this script, then
regenerate expected.jsonl (see parser/differential_test.go).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def lines(*ls):
    return "\n".join(ls) + "\n"


# A realistic document, used with several line endings.
DOC = lines(
    "Line endings",
    "============",
    "",
    ".. sreq:: First node",
    "   :id: {p}-YES-1",
    "   :refines: {p}-YES-2,",
    "      {p}-YES-3",
    "",
    "   Body.",
    "",
    "   .. test:: Nested test",
    "      :id: {p}-YES-2",
    "",
    "A literal block::",
    "",
    "   .. sreq:: literal",
    "      :id: {p}-NO-1",
    "",
    ".. comment",
    "   .. sreq:: in a comment",
    "      :id: {p}-NO-2",
    "",
    "- .. impl:: In a list item",
    "     :id: {p}-YES-3",
    "",
    ".. code-block:: rst",
    "",
    "   .. sreq:: code",
    "      :id: {p}-NO-3",
    "",
    ".. outcome:: Last",
    "   :id: {p}-YES-4",
    "   :result: passed",
)

write("16-crlf.rst", DOC.format(p="C16").replace("\n", "\r\n"))
write("17-cr.rst", DOC.format(p="C17").replace("\n", "\r"))

# Mixed line ends: LF, CRLF, CR, and CR CR LF (two line breaks).
mixed = (".. sreq:: LF line\n   :id: C17B-YES-1\n\n"
         ".. sreq:: CRLF line\r\n   :id: C17B-YES-2\r\n\r\n"
         ".. sreq:: CR line\r   :id: C17B-YES-3\r\r"
         ".. sreq:: CR CR LF is two line breaks\r\r\n   :id: C17B-NO-1\n\n"
         ".. sreq:: After it\n   :id: C17B-YES-4\n")
write("17b-mixed-line-ends.rst", mixed)

tabs = lines(
    "Tabs expand to the next multiple of eight columns",
    "==================================================",
    "",
    ".. sreq:: Options indented by a tab",
    "\t:id: C18-YES-1",
    "\t:refines: C18-YES-2",
    "",
    "\tBody indented by a tab.",
    "",
    "\t.. sreq:: Nested, indented by a tab",
    "\t   :id: C18-YES-2",
    "",
    "..\tsreq:: A tab after the dots",
    "   :id: C18-YES-3",
    "",
    ".. sreq:: Tab inside\tthe title",
    "   :id:\tC18-YES-4",
    "",
    "Paragraph.",
    "",
    "   \t.. sreq:: Three spaces and a tab: column eight",
    "\t   :id: C18-YES-5",
    "",
    "           .. sreq:: Eleven spaces: the body column of the node above, so nested",
    "\t      :id: C18-YES-6",
    "",
    ".. sreq:: Options at a tab, body at three: the block's margin is three",
    "\t:id: C18-NO-1",
    "",
    "   Body at three.",
    "",
    "Term",
    "\t.. sreq:: Definition indented by a tab",
    "\t   :id: C18-YES-7",
    "",
    "A literal block indented by a tab::",
    "",
    "\t.. sreq:: literal",
    "\t   :id: C18-NO-2",
    "",
    "- \t.. sreq:: Bullet, space, tab: the item's content starts at column eight",
    "\t  :id: C18-YES-8",
    "",
    "  \t.. sreq:: Two spaces and a tab in a block quote",
    "\t\t:id: C18-YES-9",
)
write("18-tabs.rst", tabs)

write("19-bom.rst", "\ufeff" + lines(
    ".. sreq:: Node on the first line of a file with a BOM",
    "   :id: C19-YES-1",
    "",
    "   .. sreq:: Nested",
    "      :id: C19-YES-2",
))
write("19b-bom-crlf.rst", ("\ufeff" + lines(
    "Title",
    "=====",
    "",
    ".. test:: BOM and CRLF",
    "   :id: C19B-YES-1",
)).replace("\n", "\r\n"))

NBSP = "\u00a0"
write("31-nbsp.rst", lines(
    "Unicode white space is white space to docutils",
    "==============================================",
    "",
    ".. sreq:: A line holding only no-break spaces ends the options",
    "   :id: C31-YES-1",
    NBSP * 3,
    "   :refines: C31-NO-1",
    "",
    "Paragraph.",
    "",
    NBSP * 3 + ".. sreq:: Led by no-break spaces: paragraph text (only spaces indent)",
    NBSP * 3 + "   :id: C31-NO-3",
    "",
    ".. sreq:: Trailing no-break space after the id",
    "   :id: C31-YES-3" + NBSP,
    "",
    ".. sreq:: Ideographic space line" ,
    "   :id: C31-YES-4",
    "\u3000",
    "   :refines: C31-NO-2",
))

write("32-formfeed.rst", lines(
    "Form feeds and vertical tabs are spaces to docutils",
    "===================================================",
    "",
    ".. sreq:: Before the form feed",
    "   :id: C32-YES-1",
    "",
    "\f",
    ".. sreq:: After a form-feed line (on the line an editor shows)",
    "   :id: C32-YES-2",
    "",
    "Text\fmore text on the same line",
    "",
    ".. sreq:: After a form feed inside a line",
    "   :id: C32-YES-3",
    "",
    ".. sreq:: Vertical tab in the title\vjoins it",
    "   :id: C32-YES-4",
    "",
    "A paragraph.",
    "",
    "\f.. sreq:: A form feed before the marker indents it: a block quote",
    "   :id: C32-YES-5",
    "",
    ".. sreq::\fA form feed after the colons is the space after them",
    "   :id:\fC32-YES-6\f",
    "",
    "\f\v",
    "Text",
    ".. sreq:: Continues the paragraph: no node",
    "   :id: C32-NO-1",
    "",
    ".. ERROR misspelled-directive up=1 col=1 `continues the paragraph of line 28`",
    "",
    ".. sreq:: Last",
    "   :id: C32-YES-7",
))

write("33-line-separators.rst", lines(
    "Unicode line separators end lines for docutils",
    "===============================================",
    "",
    ".. sreq:: Before",
    "   :id: C33-YES-1",
    "",
    "Text with a line separator\u2028in it.",
    "",
    ".. sreq:: After a U+2028 (docutils counts one more line)",
    "   :id: C33-YES-2",
    "",
    "Text with a next-line character\u0085in it.",
    "",
    ".. sreq:: After a U+0085",
    "   :id: C33-YES-3",
    "",
    "Text with a paragraph separator\u2029in it, and a file separator\x1c.",
    "",
    ".. sreq:: After U+2029 and U+001C",
    "   :id: C33-YES-4",
))

write("34-invalid-utf8.rst",
      b".. sreq:: Not UTF-8 \xff\xfe here\n   :id: C34-NO-1\n")

# A realistic sphinx-needs style page, with CRLF line ends.
NEEDS = lines(
    "Platform requirements",
    "=====================",
    "",
    ".. needtable::",
    "   :types: sreq, test",
    "   :columns: id, title, status",
    "   :style: table",
    "",
    "   .. sreq:: text in a needtable body",
    "      :id: R37-NOT-1",
    "",
    "Requirements by component",
    "-------------------------",
    "",
    "Networking",
    "   .. sys:: Network stack",
    "      :id: R37-SYS-NET",
    "      :status: open",
    "      :tags: net",
    "",
    "      The platform shall provide an IPv4 and IPv6 network stack.",
    "",
    "   .. sreq:: Socket API",
    "      :id: R37-SREQ-SOCK",
    "      :refines: R37-SYS-NET[status==\"open\"],",
    "                R37-SYS-STOR",
    "",
    "      .. dropdown:: Details",
    "         :open:",
    "",
    "         .. sreq:: Non-blocking sockets",
    "            :id: R37-SREQ-NB",
    "            :refines: R37-SREQ-SOCK",
    "",
    "Storage",
    "   .. sys:: Persistent storage",
    "      :id: R37-SYS-STOR",
    "",
    ".. tabs::",
    "",
    "   .. tab:: Linux",
    "",
    "      .. impl:: Linux socket layer",
    "         :id: R37-IMPL-LNX",
    "         :implements: R37-SREQ-SOCK, R37-SREQ-NB (suspect)",
    "         :source: src/linux/socket.c",
    "",
    "   .. tab:: RTOS",
    "",
    "      .. impl:: RTOS socket layer",
    "         :id: R37-IMPL-RTOS",
    "         :implements: R37-SREQ-SOCK",
    "",
    "      .. code-block:: rst",
    "",
    "         .. impl:: example in a tab",
    "            :id: R37-NOT-2",
    "",
    ".. needextend:: R37-SREQ-SOCK",
    "   :+tags: reviewed",
    "",
    ".. needflow::",
    "   :types: sys, sreq",
    "   :show_link_names:",
    "",
    "   .. sys:: not a node",
    "      :id: R37-NOT-3",
    "",
    ".. test:: Socket round trip",
    "   :id: R37-TS-SOCK",
    "   :verifies: R37-SREQ-SOCK;",
    "              R37-SREQ-NB (suspect)",
    "   :cases: net/socket_test.go:TestRoundTrip",
    "",
    "   .. needuml::",
    "",
    "      {{uml(\"R37-SREQ-SOCK\")}}",
    "",
    "   .. outcome:: CI run 812",
    "      :id: R37-OUT-812",
    "      :confirms: R37-TS-SOCK",
    "      :witnesses: R37-IMPL-LNX",
    "      :result: passed",
    "      :config: linux-x86_64",
)
write("37-realistic-needs-crlf.rst", NEEDS.replace("\n", "\r\n"))

# docutils (and so Sphinx) parses nothing of a file that has a line longer
# than its line_length_limit, 10000 characters by default.
write("39-long-line.rst", lines(
    ".. sreq:: docutils finds no node in this file",
    "   :id: C39-NO-1",
    "",
    ".. code-block:: text",
    "",
    "   " + "x" * 10001,
))
write("39b-long-line-at-limit.rst", lines(
    ".. sreq:: A line of exactly 10000 characters is still parsed",
    "   :id: C39B-YES-1",
    "",
    ".. code-block:: text",
    "",
    "   " + "x" * 9997,
))
