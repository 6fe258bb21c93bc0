"""Evaluates every filter of cases.txt on every need of needs.json as
sphinx-needs does (Python's eval() over the need's fields, search =
re.search, current_need = the need) and prints the results seg must give,
as JSON: [[filter, [result per need]]], a result being true, false or
"error" (an exception, or a value that is not a bool)."""
import json, re, sys, os

here = os.path.dirname(os.path.abspath(__file__))
needs = json.load(open(os.path.join(here, "needs.json")))
out = []
for line in open(os.path.join(here, "cases.txt"), encoding="utf-8"):
    f = line.rstrip("\n")
    if not f or f.startswith("#"):
        continue
    res = []
    for n in needs:
        ctx = dict(n)
        ctx["current_need"] = n
        ctx["search"] = lambda *a: re.search(*a) is not None
        try:
            v = eval(f, ctx)
            res.append(v if isinstance(v, bool) else "error")
        except Exception:
            res.append("error")
    out.append([f, res])
json.dump(out, sys.stdout, indent=1)
print()
