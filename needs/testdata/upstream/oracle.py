"""What sphinx-needs makes of a tree, without sphinx-needs: an oracle for
seg's sphinx-needs support, written independently of seg.

    python3 oracle.py TREE > TREE/expected.json

TREE holds a ubproject.toml and .rst files. docutils (not seg's parser)
finds the needs: every need type of the project is registered as a
directive that records its argument, options, content and the need it is
nested in, as sphinx-needs' need directive receives them; needextend as a
directive with one argument, any option and no content. Then sphinx-needs'
documented semantics are applied, read from its source (sphinx_needs/api/
need.py, directives/need.py, directives/needextend.py, functions/common.py,
external_needs.py) and written anew here:

- :delete: true drops the need and what is nested in it;
- an ID not given is the type's prefix and the upper-case SHA-1 of the
  title (of the content without a title), cut to needs_id_length;
  title_from_content takes the content's first sentence;
- tags split on ; and , ; links on , ; and | (dynamic functions kept whole);
- external needs (json_path) with their id_prefix, upper-cased;
- parent_needs from where the need is;
- needextend in (docname, line) order, each filter evaluated with Python's
  eval() over the need's fields as the extends before it left them;
- dynamic functions (echo, test, copy, check_linked_values, calc_sum,
  links_from_content), each field computed when it is first read;
- back links; a link type with copy adds its targets to links.

It prints, per need, the fields seg's needs-json must agree on.
"""

import hashlib
import json
import os
import re
import sys
import tomllib

import docutils.frontend
import docutils.nodes as nodes
import docutils.parsers.rst
import docutils.utils
from docutils.parsers.rst import Directive, directives

LITERAL = {"code-block", "code", "sourcecode", "literalinclude", "parsed-literal", "math", "raw",
           "csv-table", "graphviz", "uml", "plantuml", "mermaid", "needtable", "needlist", "needflow",
           "needpie", "needbar", "needgantt", "needsequence", "needextract", "needfilter", "needuml",
           "needarch", "list2need", "needservice", "needreport", "autofunction", "image", "figure",
           "include"}


class AnyOptions(dict):
    """Every option, its value as docutils' unchanged gives it."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged

    def get(self, key, default=None):
        return directives.unchanged

    def __bool__(self):
        return True


STATE = {}


def record(kind, directive):
    st = STATE
    rec = {"kind": kind, "type": directive.name.lower(), "docname": st["docname"],
           "lineno": directive.lineno, "args": list(directive.arguments),
           "options": dict(directive.options), "content": "\n".join(directive.content),
           "parent": st["stack"][-1] if st["stack"] else None, "order": len(st["records"])}
    st["records"].append(rec)
    return rec


class NeedDirective(Directive):
    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = AnyOptions()

    def run(self):
        rec = record("need", self)
        node = nodes.container()
        STATE["stack"].append(rec)
        try:
            self.state.nested_parse(self.content, self.content_offset, node)
        finally:
            STATE["stack"].pop()
        return [node]


class ExtendDirective(Directive):
    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True
    has_content = False
    option_spec = AnyOptions()

    def run(self):
        record("extend", self)
        return []


class Container(Directive):
    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = AnyOptions()

    def run(self):
        node = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class Literal(Container):
    def run(self):
        return []


def install(types):
    orig = directives.directive

    def lookup(name, language, document):
        n = name.lower()
        if n in types:
            return NeedDirective, []
        if n == "needextend":
            return ExtendDirective, []
        if n in LITERAL:
            return Literal, []
        cls, msgs = orig(name, language, document)
        return (cls, msgs) if cls is not None else (Container, [])

    directives.directive = lookup


def parse(root, types):
    install(types)
    parser = docutils.parsers.rst.Parser()
    settings = docutils.frontend.get_default_settings(docutils.parsers.rst.Parser)
    settings.report_level = 5
    settings.halt_level = 5
    STATE["records"] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "_build")
        for f in sorted(filenames):
            if not f.endswith(".rst"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            STATE["docname"] = rel[:-4]
            STATE["stack"] = []
            doc = docutils.utils.new_document(rel, settings)
            with open(os.path.join(dirpath, f), encoding="utf-8-sig") as fh:
                parser.parse(fh.read(), doc)
    return STATE["records"]


def boolean(v):
    v = (v or "").strip().lower()
    if v in ("", "true", "yes", "1"):
        return True
    if v in ("false", "no", "0"):
        return False
    raise ValueError(v)


def split_list(v, seps):
    """Split on the separator characters, putting [[...]] back together."""
    parts = re.split("[" + re.escape(seps) + "]", v or "")
    out, cur = [], None
    for p in parts:
        if cur is not None:
            cur += "," + p
            if "]]" in p:
                out.append(cur)
                cur = None
            continue
        if "[[" in p and "]]" not in p:
            cur = p
            continue
        out.append(p)
    return [p.strip() for p in out if p.strip()]


def main(root):
    proj = tomllib.load(open(os.path.join(root, "ubproject.toml"), "rb"))
    cfg = proj.get("needs", {})
    types = {t["directive"].lower(): t for t in cfg.get("types", [])} or {
        "req": {"prefix": "R_", "title": "Requirement"}, "spec": {"prefix": "S_", "title": "Specification"},
        "impl": {"prefix": "I_", "title": "Implementation"}, "test": {"prefix": "T_", "title": "Test Case"}}
    links = {"links": {"copy": False}, "parent_needs": {"copy": False}}
    for l in cfg.get("extra_links", []):
        links[l["option"].lower()] = l
    for name, l in cfg.get("links", {}).items():
        links[name.lower()] = l
    extra, nullable = [], set()
    for o in cfg.get("extra_options", []):
        extra.append(o if isinstance(o, str) else o["name"])
        if isinstance(o, dict) and o.get("nullable"):
            nullable.add(o["name"])
    # [needs.fields.X] defines a field, or (for sphinx-needs' own fields,
    # like layout) sets its default: those are not extra options.
    core = {"status", "tags", "layout", "style", "collapse", "hide", "title", "id", "type", "constraints",
            "template", "pre_template", "post_template", "jinja_content", "delete"}
    extra += [f for f in cfg.get("fields", {}) if f not in core]
    nullable |= {f for f, t in cfg.get("fields", {}).items() if isinstance(t, dict) and t.get("nullable")}

    def unset(o):
        """An extra option not set is "", None when it is nullable."""
        return None if o in nullable else ""
    id_length = cfg.get("id_length", 5)
    from_title = cfg.get("id_from_title", False)
    max_title = cfg.get("max_title_length", -1)
    srcdir = os.path.join(root, proj.get("project", {}).get("srcdir", "."))

    recs = parse(srcdir, set(types))
    gone = set()
    needs = {}
    order = []
    for r in recs:
        if r["kind"] != "need":
            continue
        if r["parent"] is not None and r["parent"]["order"] in gone:
            gone.add(r["order"])
            continue
        opts = r["options"]
        if "delete" in opts and boolean(opts.get("delete")):
            gone.add(r["order"])
            continue
        title = r["args"][0] if r["args"] else ""
        full = title
        tfc = opts.get("title_from_content")
        if not title and (boolean(tfc) if "title_from_content" in opts else cfg.get("title_from_content", False)):
            full = re.split(r"[.\n]", r["content"])[0]
            title = full if max_title == -1 or len(full) <= max_title else (
                full[:max_title] if max_title <= 3 else full[:max_title - 3] + "...")
        nid = opts.get("id")
        if nid is None:
            hashed = hashlib.sha1((full or r["content"]).encode("utf-8")).hexdigest().upper()
            if from_title:
                hashed = full.upper().replace(" ", "_") + "_" + hashed
            nid = types[r["type"]].get("prefix", "") + hashed[:id_length]
        r["id"] = nid
        n = {"id": nid, "type": r["type"], "title": title, "docname": r["docname"], "lineno": r["lineno"],
             "status": opts.get("status"), "tags": split_list(opts.get("tags"), ";,"),
             "content": r["content"], "is_external": False}
        for o in extra:
            n[o] = opts.get(o, unset(o))
        for l in links:
            n[l] = split_list(opts.get(l), ",;|") if l != "parent_needs" else []
        n["_rec"] = r
        needs.setdefault(nid, n)
        order.append(n)
    # external needs
    for src in cfg.get("external_needs", []):
        if "json_path" not in src:
            continue
        data = json.load(open(os.path.join(srcdir, src["json_path"]), encoding="utf-8"))
        ver = src.get("version", data.get("current_version"))
        prefix = src.get("id_prefix", "").upper()
        for e in data["versions"][ver]["needs"].values():
            n = {"id": prefix + e["id"], "type": e["type"], "title": e.get("title", ""), "docname": e.get("docname"),
                 "lineno": None, "status": e.get("status"), "tags": list(e.get("tags", [])), "content": "",
                 "is_external": True}
            for o in extra:
                n[o] = e.get(o, unset(o))
            for l in links:
                n[l] = []
            needs.setdefault(n["id"], n)
            order.append(n)
    # parent_needs: the nearest need around a need
    for n in order:
        r = n.get("_rec")
        if r is None:
            continue
        p = r["parent"]
        n["parent_needs"] = [p["id"]] if p is not None and "id" in p else []
        n["parent_need"] = n["parent_needs"][0] if n["parent_needs"] else ""
    # needextend
    exts = sorted((r for r in recs if r["kind"] == "extend"), key=lambda r: (r["docname"], r["lineno"]))

    class C:
        def __init__(self, need, doc):
            self.need, self.doc = need, doc

        def this_doc(self):
            if self.doc is None:
                raise ValueError("this_doc can not be used here")
            return self.need["docname"] == self.doc

    def context(n, doc=None, current=None):
        ctx = {k: v for k, v in n.items() if not k.startswith("_")}
        for l in links:
            ctx.setdefault(l + "_back", [])
        ctx["search"] = lambda *a: re.search(*a) is not None
        ctx["c"] = C(n, doc)
        ctx["current_need"] = current if current is not None else n
        return ctx

    def select(flt, doc, current=None):
        code = compile(flt, "<filter>", "eval")
        out = []
        for n in order:
            try:
                v = eval(code, context(n, doc, current))
            except Exception:
                continue
            if v is True:
                out.append(n)
        return out

    for e in exts:
        arg = e["args"][0].strip()
        if arg.startswith("<") and arg.endswith(">"):
            targets, is_id = [needs.get(arg[1:-1])], True
        elif arg.startswith('"') and arg.endswith('"'):
            targets, is_id = select(arg[1:-1], e["docname"]), False
        elif len(arg.split()) == 1:
            targets, is_id = [needs.get(arg)], True
        else:
            targets, is_id = select(arg, e["docname"]), False
        items = list(e["options"].items())[::-1]
        items = [i for i in items if i[0].lstrip("+-") in links] + [i for i in items if i[0].lstrip("+-") not in links]
        for n in targets:
            if n is None:
                continue
            for key, value in items:
                base = key.lstrip("+-")
                if base in links:
                    new = split_list(value, ",;|")
                    if key.startswith("-"):
                        n[base] = []
                    elif key.startswith("+"):
                        n[base] = n[base] + [v for v in new if v not in n[base]]
                    else:
                        n[base] = new
                elif base == "tags":
                    new = split_list(value, ";,")
                    n["tags"] = [] if key.startswith("-") else (n["tags"] + new if key.startswith("+") else new)
                elif base == "status" or base in extra:
                    if key.startswith("-"):
                        n[base] = None if base == "status" else unset(base)
                    elif key.startswith("+"):
                        n[base] = (n[base] + " " + value) if n[base] else value
                    else:
                        n[base] = value
    # dynamic functions
    state = {}
    funcs = re.compile(r"\[\[(.*?)\]\]")

    def get(n, field):
        resolve(n, field)
        return n[field]

    def call(n, src):
        tree = __import__("ast").parse(src, mode="eval").body
        lit = __import__("ast").literal_eval
        name = tree.func.id
        args = [lit(a) for a in tree.args]
        kw = {k.arg: lit(k.value) for k in tree.keywords}
        if name == "echo":
            return args[0] if args else kw["text"]
        if name == "test":
            return "Test output of need %s. args: %s. kwargs: %s" % (n["id"], tuple(args), kw)
        if name == "copy":
            p = dict(zip(["option", "need_id", "lower", "upper", "filter"], args), **kw)
            src_need = needs[p["need_id"]] if p.get("need_id") else n
            if p.get("filter"):
                found = select(p["filter"], None, current=context(n))
                if found:
                    src_need = found[0]
            v = get(src_need, p["option"])
            if p.get("lower"):
                return v.lower()
            if p.get("upper"):
                return v.upper()
            return v
        if name == "check_linked_values":
            p = dict(zip(["result", "search_option", "search_value", "filter_string", "one_hit"], args), **kw)
            want = p["search_value"] if isinstance(p["search_value"], list) else [p["search_value"]]
            for l in get(n, "links"):
                m = needs[l]
                if p.get("filter_string") and not eval(p["filter_string"], context(m)):
                    continue
                v = get(m, p["search_option"])
                if not p.get("one_hit") and v not in want:
                    return None
                if p.get("one_hit") and v in want:
                    return p["result"]
            return p["result"]
        if name == "calc_sum":
            p = dict(zip(["option", "filter", "links_only"], args), **kw)
            check = [needs[l] for l in get(n, "links")] if p.get("links_only") else order
            total = 0.0
            for m in check:
                if p.get("filter") and not eval(p["filter"], context(m)):
                    continue
                v = get(m, p["option"])
                if v is None:
                    continue
                try:
                    total += float(v)
                except ValueError:
                    pass
            return total
        if name == "links_from_content":
            p = dict(zip(["need_id", "filter"], args), **kw)
            src_need = needs[p["need_id"]] if p.get("need_id") else n
            raw = []
            for a, b in re.findall(r":need:`(\w+)`|:need:`.+\<(.+)\>`", src_need["content"]):
                if a and a not in raw:
                    raw.append(a)
                elif b and a not in raw:
                    raw.append(b)
            return raw
        raise KeyError(name)

    def resolve(n, field):
        key = (n["id"], field)
        if state.get(key) or n.get("is_external"):
            return
        state[key] = True
        v = n.get(field)
        if isinstance(v, list):
            out = []
            for item in v:
                m = funcs.fullmatch(item) if isinstance(item, str) else None
                if m:
                    res = call(n, m.group(1))
                    out += res if isinstance(res, list) else ([] if res is None else [res])
                else:
                    out.append(item)
            n[field] = out
        elif isinstance(v, str) and "[[" in v:
            for m in funcs.finditer(v):
                res = call(n, m.group(1))
                v = v.replace(m.group(0), "" if res is None else str(res), 1)
            n[field] = v or None

    for n in order:
        for f in ["title", "status", "tags"] + extra + list(links):
            resolve(n, f)
    # copy link types into links, then back links
    for n in order:
        for l, lt in links.items():
            if lt.get("copy") and l != "links":
                n["links"] = n["links"] + n[l]
    for n in order:
        for l in links:
            n.setdefault(l + "_back", [])
    for n in order:
        for l in links:
            for t in n[l]:
                target = needs.get(t)
                if target is not None and n["id"] not in target[l + "_back"]:
                    target[l + "_back"].append(n["id"])
    out = {}
    for n in order:
        if n.get("is_external") or out.get(n["id"]):
            continue
        row = {"type": n["type"], "title": n["title"], "status": n["status"], "tags": n["tags"]}
        for l in links:
            row[l] = n[l]
            row[l + "_back"] = sorted(n[l + "_back"])
        for o in extra:
            row[o] = n[o]
        out[n["id"]] = row
    json.dump({"needs": out}, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
