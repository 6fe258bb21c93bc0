#!/usr/bin/env python3
"""seed.py SRC DST [SEED]: copy every .rst file under SRC to DST, planting
seg directives: every existing directive is renamed to a seg directive
with probability 1/3 (an :id: option added after its header line), and a
small seg directive is inserted before random lines, indented like them."""
import os, random, re, sys

src, dst = sys.argv[1], sys.argv[2]
rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
kinds = ["sreq", "test", "impl", "outcome", "waiver"]
n = 0
directive = re.compile(r'^(\s*)\.\. ([A-Za-z][\w:+.-]*)::(.*)$')
for dirpath, dirs, files in os.walk(src):
    dirs[:] = [d for d in dirs if not d.startswith('.') and d not in ('_build', 'node_modules', 'vendor')]
    for f in files:
        if not f.endswith('.rst') or f.startswith('.'):
            continue
        p = os.path.join(dirpath, f)
        try:
            text = open(p, encoding='utf-8').read()
        except Exception:
            continue
        lines = text.split('\n')
        out = []
        for line in lines:
            m = directive.match(line)
            if m and rnd.random() < 1/3:
                n += 1
                ind = m.group(1)
                out.append(f"{ind}.. {rnd.choice(kinds)}::{m.group(3)}")
                out.append(f"{ind}   :id: SEED-{n}")
                continue
            if rnd.random() < 0.04:
                n += 1
                ind = re.match(r'\s*', line).group(0)
                out.append("")
                out.append(f"{ind}.. {rnd.choice(kinds)}:: Planted {n}")
                out.append(f"{ind}   :id: SEED-{n}")
                out.append("")
            out.append(line)
        rel = os.path.relpath(p, src)
        q = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(q), exist_ok=True)
        open(q, 'w', encoding='utf-8').write('\n'.join(out))
print(n, "directives planted", file=sys.stderr)
