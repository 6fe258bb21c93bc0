// seg matrix --format html: the page's script. It renders the rows it
// shows from the JSON in #_data (report/matrix_html.go writes it), a few
// dozen at a time as the reader scrolls, so a page of 50,000 requirements
// builds no more DOM than one of 50. Every text goes in as text.
//
// Data layout (D):
//   node table, one entry per node, requirements first in row order:
//     id[], title[], k[] (index into kinds), type (one letter a node:
//     r t i o w n), f[] (index into files), l[], c[] (line, column),
//     body[], attrs ({node: [name, value, ...]} for the nodes that have any)
//   rows[i] = [status, leaf, level, tree parent (row or -1),
//              refines, refinedBy, tests, implements, reasons, notes]
//     (refinedBy is written as 0 and derived here from the refines links;
//     tests, implements and notes come as one JSON string in the place
//     of tests, read when first needed: R; implements is written as 0;
//     reasons come as they are, for the search index and the reason
//     column read them for every row)
//     link    = [node, state, file, line, column]   (the link entry's place)
//     test    = [node, state, file, line, column, outcomes]
//     outcome = [node, result, standing, waiver node or -1, why code or -1,
//                config, [[waiver node, in force 0/1, expires,
//                          why not in force (evaluate's words)], ...]]
//     reason  = [code, message, file, line, column]
//   diags[j] = [code, severity (0 error, 1 warning), message, file, line, column]
//   files[], hrefs[] (per file: a link with {line} and {column} to fill),
//   kinds[], codes[], columns[] (shown at first), all[] (offered).
(function () {
  "use strict";
  // performance marks: the benchmark reads where the load time goes.
  performance.mark("seg-start");
  var D = JSON.parse(document.getElementById("_data").textContent);
  performance.mark("seg-data");
  var N = D.rows.length;
  (function () {
    var i;
    for (i = 0; i < N; i++) { D.rows[i][5] = []; }
    for (i = 0; i < N; i++) {
      D.rows[i][4].forEach(function (l) { D.rows[l[0]][5].push([i, l[1], l[2], l[3], l[4]]); });
    }
  })();
  var STATUS = ["satisfied", "failing", "unproven"];
  var STATE = ["active", "suspect", "retired", "invalid"];
  var RESULT = ["passed", "failed", "skipped", "error", "invalid"];
  var STANDING = ["counted", "excused", "failing", "invalid", "skipped", "excluded"];
  var STANDING_WORDS = ["counted", "excused", "counts against", "counts against: no valid result", "skipped: no evidence either way", "excluded"];
  var WHY = { "outcome-unwitnessed": "witnesses no implementation" };
  var TYPE = { r: "requirement", t: "test", i: "implementation", o: "outcome", w: "waiver", n: "need" };
  var ROW = 24; // px, as --row in the CSS

  function $(id) { return document.getElementById(id); }
  // R is row i with its evidence (tests, implements, reasons, notes) read:
  // the page keeps each row's evidence as a JSON string until it is
  // needed, so loading parses a few strings instead of millions of small
  // arrays.
  function R(i) {
    var r = D.rows[i];
    if (typeof r[6] === "string") {
      var x = JSON.parse(r[6]);
      r[6] = x[0]; r[7] = x[1]; r[9] = x[2];
    }
    return r;
  }
  function attrsOf(i) { return D.attrs[i] || []; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var c = arguments[i];
      if (c !== null && c !== undefined) { parent.appendChild(typeof c === "string" ? document.createTextNode(c) : c); }
    }
    return parent;
  }
  function href(fi, line, col) {
    var h = D.hrefs[fi];
    return h ? h.split("{line}").join(String(line)).split("{column}").join(String(col || 1)) : "";
  }
  // mid is text that, cut to fit its cell, loses its middle, never its
  // end: the head shrinks to an ellipsis, the tail (a path's last
  // segment when short, else the last dozen characters) always shows. The whole
  // text is the element's text (and the cell's title), so a search, a
  // copy and the printed page have all of it.
  function mid(text) {
    var s = el("span", "mid"), k = text.lastIndexOf("/") + 1;
    if (k <= 0 || text.length - k > 24) { k = text.length - Math.min(12, Math.floor(text.length / 2)); }
    if (k <= 0) { s.textContent = text; return s; }
    add(s, el("span", "h", text.slice(0, k)), el("span", "t", text.slice(k)));
    return s;
  }
  // srcLink links text to a source; cut (a cell of the grid) makes it a
  // mid.
  function srcLink(text, fi, line, col, cut) {
    var a = el("a", "nw");
    a.appendChild(cut ? mid(text) : document.createTextNode(text));
    var h = href(fi, line, col);
    if (h) { a.href = h; }
    return a;
  }
  function pos(fi, line, col) {
    if (!D.files[fi]) { return el("span", "st", "(no file)"); }
    return srcLink(D.files[fi] + ":" + line + (col ? ":" + col : ""), fi, line, col);
  }
  // nodeLink: a requirement links to its row, any other node to its
  // source; cut as srcLink's.
  function nodeLink(n, cut) {
    if (n < N) {
      var a = el("a", "id");
      a.appendChild(cut ? mid(D.id[n]) : document.createTextNode(D.id[n]));
      a.href = "#" + D.id[n];
      a.title = D.title[n];
      return a;
    }
    var s = srcLink(D.id[n], D.f[n], D.l[n], D.c[n], cut);
    s.title = TYPE[D.type[n]] + ": " + D.title[n];
    return s;
  }
  function badge(st) { return el("span", "b " + STATUS[st], STATUS[st]); }

  // ---- columns ----
  function linkIDs(ls) {
    return ls.map(function (l) { return D.id[l[0]] + (l[1] ? " (" + STATE[l[1]] + ")" : ""); }).join(", ");
  }
  function waiversInForce(i) {
    var seen = {}, out = [];
    R(i)[6].forEach(function (t) {
      t[5].forEach(function (o) {
        o[6].forEach(function (w) {
          if (w[1] && !seen[w[0]]) { seen[w[0]] = 1; out.push(w); }
        });
      });
    });
    return out;
  }
  function attr(i, name) {
    var a = attrsOf(i);
    for (var j = 0; j < a.length; j += 2) { if (a[j] === name) { return a[j + 1]; } }
    return "";
  }
  var COLS = {
    id: { head: "ID", max: 240, text: function (i) { return D.id[i]; } },
    kind: { head: "Kind", max: 90, text: function (i) { return D.kinds[D.k[i]]; } },
    title: { head: "Title", max: 0, text: function (i) { return D.title[i]; } },
    verdict: { head: "Status", max: 90, text: function (i) { return STATUS[D.rows[i][0]]; },
      render: function (td, i) { td.appendChild(badge(D.rows[i][0])); } },
    location: { head: "Location", max: 240, text: function (i) { return D.files[D.f[i]] + ":" + D.l[i]; },
      render: function (td, i) { td.appendChild(srcLink(D.files[D.f[i]] + ":" + D.l[i], D.f[i], D.l[i], D.c[i], true)); } },
    refines: { head: "Refines", max: 180, text: function (i) { return linkIDs(D.rows[i][4]); }, render: function (td, i) { links(td, D.rows[i][4]); } },
    "refined-by": { head: "Refined by", max: 180, text: function (i) { return linkIDs(D.rows[i][5]); }, render: function (td, i) { links(td, D.rows[i][5]); } },
    tests: { head: "Tests", max: 300, text: function (i) {
      return R(i)[6].map(function (t) {
        return D.id[t[0]] + (t[1] ? " (" + STATE[t[1]] + ")" : "") + ": " + (t[5].length ? t[5].map(function (o) { return RESULT[o[1]] + (o[5] ? "[" + o[5] + "]" : ""); }).join(", ") : "no outcomes");
      }).join("; ");
    }, render: function (td, i) {
      var ls = list(td);
      R(i)[6].forEach(function (t, j) {
        var it = add(el("span", "it"), j ? "; " : "", nodeLink(t[0], true), t[1] ? " (" + STATE[t[1]] + ")" : "", ":");
        ls.appendChild(it);
        if (!t[5].length) { add(it, el("span", "st", " no outcomes")); }
        t[5].forEach(function (o, k) {
          add(it, k ? ", " : " ", el("span", "o-" + STANDING[o[2]], RESULT[o[1]]), o[5] ? "[" + o[5] + "]" : "");
        });
      });
    } },
    "implemented-by": { head: "Implemented by", max: 180, text: function (i) { return linkIDs(R(i)[7]); }, render: function (td, i) { links(td, R(i)[7]); } },
    waivers: { head: "Waivers in force", max: 160, text: function (i) {
      return waiversInForce(i).map(function (w) { return D.id[w[0]] + (w[2] ? " until " + w[2] : ""); }).join(", ");
    }, render: function (td, i) {
      var ls = list(td);
      waiversInForce(i).forEach(function (w, j) { add(ls, add(el("span", "it"), j ? ", " : "", nodeLink(w[0], true), w[2] ? el("span", "st", " until " + w[2]) : null)); });
    } },
    reason: { head: "First reason", max: 380, text: function (i) {
      var r = D.rows[i][8];
      return r.length ? r[0][1] + " [" + D.codes[r[0][0]] + "]" + (r.length > 1 ? " (+" + (r.length - 1) + " more)" : "") : "";
    } },
    level: { head: "Level", max: 60, text: function (i) { return String(D.rows[i][2]); } }
  };
  D.all.forEach(function (c) {
    if (!COLS[c]) { COLS[c] = { head: c, max: 220, text: function (i) { return attr(i, c); } }; }
  });
  // list is the box of a cell that lists entries: one line of whole
  // entries, an entry that does not fit going to a second line the cell
  // does not show (the cell's title has them all), so that no ID is cut
  // at its end; a single entry too long for the cell loses its middle.
  function list(td) { var box = el("div", "list"); td.appendChild(box); return box; }
  function links(td, ls) {
    var box = list(td);
    ls.forEach(function (l, j) { add(box, add(el("span", "it"), j ? ", " : "", nodeLink(l[0], true), l[1] ? el("span", "st", " (" + STATE[l[1]] + ")") : null)); });
  }

  // ---- state (mirrored in the URL fragment: #!v=list&s=failing&...) ----
  var DEFAULT_COLS = D.columns.join(",");
  var st;
  function freshState() {
    return { view: "tree", status: "", kind: "", text: "", cols: D.columns.slice(), sort: "", dir: 1, open: {}, depth: 0, toggled: {}, hl: "" };
  }
  st = freshState();
  function setIDs(s) {
    var o = {};
    if (s) { s.split(",").forEach(function (id) { if (id) { o[decodeURIComponent(id)] = 1; } }); }
    return o;
  }
  function idList(o) { return Object.keys(o).sort().map(encodeURIComponent).join(","); }
  function stateToHash() {
    var p = [];
    if (st.view !== "tree") { p.push("v=" + st.view); }
    if (st.status) { p.push("s=" + st.status); }
    if (st.kind) { p.push("k=" + encodeURIComponent(st.kind)); }
    if (st.text) { p.push("q=" + encodeURIComponent(st.text)); }
    if (st.cols.join(",") !== DEFAULT_COLS) { p.push("c=" + st.cols.join(",")); }
    if (st.sort) { p.push("o=" + st.sort + (st.dir < 0 ? "-" : "")); }
    var x = idList(st.open);
    if (x) { p.push("x=" + x); }
    if (st.depth) { p.push("td=" + st.depth); }
    var t = idList(st.toggled);
    if (t) { p.push("tx=" + t); }
    if (st.hl) { p.push("h=" + encodeURIComponent(st.hl)); }
    return p.length ? "#!" + p.join("&") : "";
  }
  function hashToState(h) {
    var s = freshState();
    h.slice(2).split("&").forEach(function (kv) {
      var i = kv.indexOf("="), k = i < 0 ? kv : kv.slice(0, i), v = i < 0 ? "" : kv.slice(i + 1);
      var dv = "";
      try { dv = decodeURIComponent(v); } catch (e) { dv = v; }
      switch (k) {
        case "v": s.view = dv === "list" ? "list" : "tree"; break;
        case "s": s.status = dv; break;
        case "k": s.kind = dv; break;
        case "q": s.text = dv; break;
        case "c": s.cols = dv.split(",").filter(function (c) { return COLS[c]; }); break;
        case "o": s.dir = dv.slice(-1) === "-" ? -1 : 1; s.sort = dv.replace(/-$/, ""); if (!COLS[s.sort]) { s.sort = ""; } break;
        case "x": s.open = setIDs(v); break;
        case "td": s.depth = parseInt(dv, 10) || 0; break;
        case "tx": s.toggled = setIDs(v); break;
        case "h": s.hl = dv; break;
      }
    });
    return s;
  }
  // The URL follows every change (typing is already one update a frame).
  function saveState() {
    var h = stateToHash();
    if (location.hash !== h) {
      history.replaceState(null, "", h || location.pathname + location.search);
    }
  }

  // ---- the grid ----
  var byID = {};
  for (var i0 = 0; i0 < N; i0++) { byID[D.id[i0]] = i0; }
  var grid = $("_grid");
  var table = el("table", "m");
  table.id = "_matrix";
  var colgroup = el("colgroup");
  var thead = el("thead");
  var tbody = el("tbody");
  add(table, colgroup, thead, tbody);
  var caption = el("caption", "note");
  caption.hidden = true;
  table.insertBefore(caption, colgroup);
  grid.appendChild(table);

  // Column widths come from the content: the longest texts of a sample of
  // rows, measured in the page's font, between the header's width and the
  // column's maximum. The title takes what is left.
  var canvas = document.createElement("canvas").getContext("2d");
  var widths = {}, bodyFont = null;
  function measure(s) { return canvas.measureText(s).width; }
  function columnWidth(c) {
    if (widths[c] !== undefined) { return widths[c]; }
    var col = COLS[c];
    if (!bodyFont) { var cs = getComputedStyle(document.body); bodyFont = [cs.fontFamily, cs.font]; }
    canvas.font = "600 13px " + bodyFont[0];
    var w = measure(col.head) + 26;
    canvas.font = bodyFont[1];
    // A sample of at most 600 rows, evenly spread, finds the widths a
    // column needs well enough: longer text ends in an ellipsis.
    var step = Math.max(1, Math.floor(N / 600)), best = [];
    for (var i = 0; i < N; i += step) {
      var t = col.text(i);
      if (best.length < 4 || t.length > best[best.length - 1].length) {
        best.push(t);
        best.sort(function (a, b) { return b.length - a.length; });
        best.length = Math.min(best.length, 4);
      }
    }
    best.forEach(function (t) { w = Math.max(w, measure(t) + 14); });
    if (c === "verdict") { w = Math.max(w, 86); }
    if (c === "id") {
      var depth = 0;
      for (var j = 0; j < N; j += step) { depth = Math.max(depth, D.rows[j][2]); }
      w += 18 + 14 * Math.min(depth, 12);
    }
    widths[c] = col.max ? Math.min(Math.ceil(w), col.max) : 0;
    return widths[c];
  }
  // fitWidths shrinks the widest columns (not the ID, kind, status or
  // level), never below 110 px or their header, until the grid fits the
  // window with room for the title; the ellipsis and the tooltip keep
  // what no longer fits.
  function fitWidths(cols) {
    var ws = cols.map(columnWidth);
    var room = Math.max(grid.clientWidth, 600) - 24 - (cols.indexOf("title") >= 0 ? 240 : 0);
    for (var round = 0; round < 8; round++) {
      var total = 0, spare = 0;
      ws.forEach(function (w, j) { total += w; if (w > floor(cols[j])) { spare += w - floor(cols[j]); } });
      if (total <= room || spare <= 0) { break; }
      var cut = Math.min(1, (total - room) / spare);
      ws = ws.map(function (w, j) { var f = floor(cols[j]); return w > f ? Math.floor(w - (w - f) * cut) : w; });
    }
    return ws;
  }
  function floor(c) {
    if (c === "id" || c === "location" || c === "verdict" || c === "kind" || c === "level") { return columnWidth(c); } // never cut an ID or a path
    canvas.font = "600 13px " + bodyFont[0];
    return Math.min(columnWidth(c), Math.max(110, Math.ceil(measure(COLS[c].head)) + 26));
  }
  function buildHead() {
    colgroup.replaceChildren();
    var cx = el("col");
    cx.style.width = "24px";
    colgroup.appendChild(cx);
    var tr = el("tr");
    var thx = el("th", "x");
    thx.scope = "col";
    add(thx, el("span", "sr", "Evidence"));
    tr.appendChild(thx);
    var total = 24, ws = fitWidths(st.cols);
    st.cols.forEach(function (c, j) {
      var col = el("col");
      var w = ws[j];
      if (w) { col.style.width = w + "px"; total += w; } else { col.className = "flex"; }
      colgroup.appendChild(col);
      var th = el("th");
      th.scope = "col";
      th.dataset.h = COLS[c].head;
      th.setAttribute("aria-sort", st.sort === c ? (st.dir > 0 ? "ascending" : "descending") : "none");
      var b = el("button", null, COLS[c].head);
      b.type = "button";
      b.dataset.col = c;
      b.title = "sort by " + COLS[c].head.toLowerCase();
      th.appendChild(b);
      tr.appendChild(th);
    });
    if (st.cols.indexOf("title") >= 0) { total += 240; }
    table.style.width = "max(100%, " + total + "px)";
    thead.replaceChildren(tr);
    table.setAttribute("aria-colcount", String(st.cols.length + 1));
  }

  // ---- filtering, sorting, the items shown ----
  // The search index: every row's searchable text, lowercased, in one
  // string (row i is text[starts[i]] up to starts[i + 1], rows ended by
  // a NUL no query holds), so that building it is one join and one
  // toLowerCase and a query one native indexOf over the whole, not a
  // string a row.
  var hay = null;
  function haystack() {
    if (hay) { return hay; }
    var build = function (lower) {
      var parts = [], starts = new Int32Array(N + 1), at = 0;
      function put(s) {
        s = lower ? s.toLowerCase() : s;
        parts.push(s);
        at += s.length;
      }
      for (var i = 0; i < N; i++) {
        starts[i] = at;
        var r = D.rows[i], a = attrsOf(i);
        put(D.id[i] + "\n" + D.title[i] + "\n" + D.kinds[D.k[i]] + "\n" + STATUS[r[0]] + "\n" + D.files[D.f[i]] + ":" + D.l[i]);
        for (var j = 1; j < a.length; j += 2) { put("\n" + a[j]); }
        for (var k = 0; k < r[8].length; k++) { put("\n" + r[8][k][1]); }
        if (D.body[i]) { put("\n" + D.body[i]); }
        put("\u0000");
      }
      starts[N] = at;
      return { text: parts.join(""), starts: starts };
    };
    hay = build(false);
    var lowered = hay.text.toLowerCase();
    // Lowercasing a few characters changes their length (İ); then the
    // rows are lowered one piece at a time, and their offsets follow.
    hay = lowered.length === hay.text.length ? { text: lowered, starts: hay.starts } : build(true);
    return hay;
  }
  // hits marks the rows whose search text holds q.
  function hits(q) {
    var h = haystack(), m = new Uint8Array(N), from = 0, row = 0;
    for (;;) {
      var p = h.text.indexOf(q, from);
      if (p < 0) { return m; }
      while (h.starts[row + 1] <= p) { row++; }
      m[row] = 1;
      from = h.starts[row + 1];
    }
  }
  function matcher() {
    var status = st.status, kind = st.kind === "" ? -1 : D.kinds.indexOf(st.kind), q = st.text.trim().toLowerCase();
    if (!status && kind < 0 && !q) { return null; }
    var hit = q ? hits(q) : null;
    return function (i) {
      var s = D.rows[i][0];
      if (status === "unsatisfied" ? s === 0 : status && STATUS[s] !== status) { return false; }
      if (kind >= 0 && D.k[i] !== kind) { return false; }
      return !hit || hit[i] === 1;
    };
  }
  var keyCache = {};
  function pad(d) { return d.length >= 12 ? d : "000000000000".slice(d.length) + d; }
  function sortKeys(c) {
    if (!keyCache[c]) {
      var k = new Array(N);
      for (var i = 0; i < N; i++) {
        k[i] = c === "verdict" ? String(D.rows[i][0]) : COLS[c].text(i).toLowerCase().replace(/\d+/g, pad);
      }
      keyCache[c] = k;
    }
    return keyCache[c];
  }
  function order(list) {
    if (!st.sort) { return list; }
    var k = sortKeys(st.sort), dir = st.dir;
    return list.slice().sort(function (a, b) { return (k[a] < k[b] ? -dir : k[a] > k[b] ? dir : 0) || a - b; });
  }
  var children = null; // row -> its rows in the tree view (primary children)
  function treeChildren() {
    if (children) { return children; }
    children = new Array(N);
    for (var i = 0; i < N; i++) { children[i] = []; }
    for (var j = 0; j < N; j++) {
      D.rows[j][5].forEach(function (l) { if (l[0] < N) { children[j].push(l[0]); } });
      children[j].sort(function (a, b) { return a - b; });
    }
    return children;
  }
  function collapsed(i, depth) {
    var c = st.depth > 0 && depth >= st.depth;
    return st.toggled[D.id[i]] ? !c : c;
  }
  // items: {i: row, d: depth, ref: 1 when a second place of a row in the
  // tree, ctx: 1 when shown only as the parent of a match, x: 1 for the
  // evidence row under an open row}.
  var items = [], shown = 0;
  function buildItems() {
    var m = matcher();
    items = [];
    shown = 0;
    if (st.view === "list") {
      var list = [];
      for (var i = 0; i < N; i++) { if (!m || m(i)) { list.push(i); } }
      shown = list.length;
      order(list).forEach(function (i) { pushRow({ i: i, d: 0 }); });
      return;
    }
    var ch = treeChildren();
    // keep[i]: the row matches, or a row below it in the tree does.
    var keep = null;
    if (m) {
      keep = new Uint8Array(N);
      var byLevel = [];
      for (var j = 0; j < N; j++) {
        if (m(j)) { keep[j] = 2; shown++; }
        (byLevel[D.rows[j][2]] = byLevel[D.rows[j][2]] || []).push(j);
      }
      for (var lv = byLevel.length - 1; lv > 0; lv--) {
        (byLevel[lv] || []).forEach(function (j) {
          var p = D.rows[j][3];
          if (keep[j] && p >= 0 && !keep[p]) { keep[p] = 1; }
        });
      }
    } else {
      shown = N;
    }
    var roots = [];
    for (var r = 0; r < N; r++) { if (D.rows[r][3] < 0 && (!keep || keep[r])) { roots.push(r); } }
    // Depth first, without recursion: a refinement chain can be long.
    var stack = order(roots).reverse().map(function (r) { return { i: r, d: 0 }; });
    while (stack.length) {
      var it = stack.pop();
      if (keep && !it.ref) { it.ctx = keep[it.i] === 1 ? 1 : 0; }
      pushRow(it);
      if (it.ref || collapsed(it.i, it.d)) { continue; }
      var kids = order(ch[it.i]), next = [];
      kids.forEach(function (c) {
        if (D.rows[c][3] === it.i) {
          if (!keep || keep[c]) { next.push({ i: c, d: it.d + 1 }); }
        } else if (!m || m(c)) {
          next.push({ i: c, d: it.d + 1, ref: 1, p: it.i });
        }
      });
      for (var k = next.length - 1; k >= 0; k--) { stack.push(next[k]); }
    }
  }
  function pushRow(it) {
    items.push(it);
    if (!it.ref && st.open[D.id[it.i]]) { items.push({ i: it.i, d: it.d, x: 1 }); }
  }

  // ---- rendering the rows in view ----
  var offsets = new Float64Array(1), xh = {}; // evidence row heights, measured
  function layout() {
    offsets = new Float64Array(items.length + 1);
    for (var k = 0; k < items.length; k++) {
      offsets[k + 1] = offsets[k] + (items[k].x ? (xh[D.id[items[k].i]] || 200) : ROW);
    }
  }
  function firstAt(y) {
    var lo = 0, hi = items.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (offsets[mid + 1] <= y) { lo = mid + 1; } else { hi = mid; }
    }
    return lo;
  }
  var printing = false, range = [-1, -1], focusKey = null;
  function bodyTop() { return tbody.getBoundingClientRect().top + window.scrollY; }
  function render(force) {
    var a = 0, b = items.length;
    if (!printing) {
      var top = window.scrollY - bodyTop();
      a = Math.max(0, firstAt(top - 400));
      b = Math.min(items.length, firstAt(top + window.innerHeight + 400) + 1);
    }
    if (!force && a === range[0] && b === range[1]) { return; }
    range = [a, b];
    var frag = document.createDocumentFragment();
    frag.appendChild(spacer(offsets[a]));
    for (var k = a; k < b; k++) { frag.appendChild(items[k].x ? evidenceRow(items[k]) : row(items[k], k)); }
    frag.appendChild(spacer(offsets[items.length] - offsets[b]));
    tbody.replaceChildren(frag);
    table.setAttribute("aria-rowcount", String(items.length + 1));
    // Measure the evidence rows now in view; lay out again if they differ.
    var changed = false;
    tbody.querySelectorAll("tr.xr").forEach(function (tr) {
      var h = tr.getBoundingClientRect().height, id = tr.dataset.id;
      if (Math.abs((xh[id] || 200) - h) > 0.5) { xh[id] = h; changed = true; }
    });
    if (changed && !printing) { layout(); render(true); return; }
    if (focusKey !== null) {
      var f = tbody.querySelector('tr.r[data-k="' + focusKey + '"]');
      if (f && document.activeElement !== f && (document.activeElement === document.body || tbody.contains(document.activeElement))) { f.focus({ preventScroll: true }); }
    }
  }
  function spacer(h) {
    var tr = el("tr", "sp");
    tr.setAttribute("aria-hidden", "true");
    var td = el("td");
    td.colSpan = st.cols.length + 1;
    td.style.height = h + "px";
    tr.appendChild(td);
    return tr;
  }
  function row(it, k) {
    var i = it.i, r = D.rows[i];
    var tr = el("tr", "r" + (it.ref ? " ref" : "") + (it.ctx ? " ctx" : "") + (st.hl === D.id[i] && !it.ref ? " hl" : ""));
    tr.tabIndex = -1;
    tr.dataset.i = i;
    tr.dataset.k = k;
    tr.setAttribute("aria-rowindex", String(k + 2));
    if (!it.ref) { tr.id = D.id[i]; }
    if (st.view === "tree") {
      tr.setAttribute("aria-level", String(it.d + 1));
      if (!it.ref && treeChildren()[i].length) { tr.setAttribute("aria-expanded", collapsed(i, it.d) ? "false" : "true"); }
    }
    var tx = el("td", "x");
    if (!it.ref) {
      var xb = el("button", "xb", st.open[D.id[i]] ? "\u25BE" : "\u25B8");
      xb.type = "button";
      xb.tabIndex = -1;
      xb.setAttribute("aria-expanded", st.open[D.id[i]] ? "true" : "false");
      xb.setAttribute("aria-label", "evidence of " + D.id[i]);
      tx.appendChild(xb);
    }
    tr.appendChild(tx);
    st.cols.forEach(function (c) {
      var td = el("td", "c-" + c), col = COLS[c];
      if (c === "id") {
        // A flex box, so that the ID shrinks from its middle after the
        // note of a repeated row, and never under the twisty.
        var cell = el("div", "cell");
        td.appendChild(cell);
        if (st.view === "tree") {
          td.style.paddingLeft = (2 + 14 * Math.min(it.d, 12)) + "px";
          var kids = treeChildren()[i].length && !it.ref;
          var tw = el("span", "tw" + (kids ? "" : " leaf"), kids ? (collapsed(i, it.d) ? "\u25B8" : "\u25BE") : "\u00B7");
          tw.setAttribute("aria-hidden", "true");
          cell.appendChild(tw);
        }
        cell.appendChild(nodeLink(i, true));
        if (it.ref) { add(cell, el("span", "st note", "\u00A0\u21B3 also under " + D.id[it.p])); }
        td.title = D.id[i] + (it.ref ? " (also refines " + D.id[it.p] + "; its place in the tree is under " + (r[3] >= 0 ? D.id[r[3]] : "the top") + ")" : "");
      } else if (col.render) {
        col.render(td, i);
        td.title = col.text(i);
      } else {
        td.textContent = col.text(i);
        td.title = td.textContent;
      }
      tr.appendChild(td);
    });
    return tr;
  }

  // The evidence of one requirement: its text and fields, why it is
  // unsatisfied, the links both ways, every test with every outcome (its
  // case name, its failure message, how it counted, the waivers naming it
  // and whether each is in force, with its justification), what
  // implements it, and the notes.
  function section(box, title, list, render) {
    if (!list.length) { return; }
    var ul = el("ul");
    add(box, el("h3", null, title + " (" + list.length + ")"), ul);
    list.forEach(function (x) { ul.appendChild(render(x)); });
  }
  function text(body, cls) {
    var div = el("div", cls || "text");
    body.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/).forEach(function (p) {
      if (p.trim()) { div.appendChild(el("p", null, p.replace(/^\n+|\s+$/g, ""))); }
    });
    return div;
  }
  function reason(x) { return add(el("li"), pos(x[2], x[3], x[4]), ": " + x[1] + " ", el("code", null, "[" + D.codes[x[0]] + "]")); }
  function linked(x) {
    var n = x[0], li = add(el("li"), nodeLink(n), " " + D.title[n] + " ");
    var meta = add(el("span", "st"), STATE[x[1]]);
    if (n < N) { add(li, badge(D.rows[n][0]), " "); }
    add(meta, ", link at ", pos(x[2], x[3], x[4]));
    return add(li, meta);
  }
  function test(x) {
    var li = add(el("li"), nodeLink(x[0]), " " + D.title[x[0]] + " ", add(el("span", "st"), STATE[x[1]] + ", link at ", pos(x[2], x[3], x[4])));
    var ul = el("ul");
    if (!x[5].length) { add(ul, el("li", "st", "no outcomes")); }
    x[5].forEach(function (o) {
      var n = o[0];
      var item = add(el("li"), nodeLink(n), " ", el("span", "o-" + STANDING[o[2]], RESULT[o[1]]), o[5] ? " [" + o[5] + "]" : "", ": " + STANDING_WORDS[o[2]]);
      if (o[4] >= 0) { add(item, ": " + (WHY[D.codes[o[4]]] || D.codes[o[4]]) + " ", el("code", null, "[" + D.codes[o[4]] + "]")); }
      if (o[3] >= 0) { add(item, " by waiver ", nodeLink(o[3])); }
      if (D.title[n] && D.title[n] !== D.id[n]) { add(item, el("span", "st", " \u2014 " + D.title[n])); }
      if (D.type[n] === "o" && D.body[n]) { item.appendChild(el("div", "msg", D.body[n])); }
      if (o[6].length) {
        var wl = el("ul");
        o[6].forEach(function (w) {
          var wi = add(el("li"), "waiver ", nodeLink(w[0]), " " + D.title[w[0]] + ": ", w[1] ? "in force" : el("b", null, "not in force"), w[1] ? (w[2] ? " until " + w[2] : "") : ": " + w[3]);
          if (D.body[w[0]]) { wi.appendChild(text(D.body[w[0]])); }
          wl.appendChild(wi);
        });
        item.appendChild(wl);
      }
      ul.appendChild(item);
    });
    return add(li, ul);
  }
  function evidenceRow(it) {
    var i = it.i, r = R(i);
    var tr = el("tr", "xr");
    tr.dataset.id = D.id[i];
    var td = el("td");
    td.colSpan = st.cols.length + 1;
    var box = el("div", "ex");
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "evidence of " + D.id[i]);
    add(box, add(el("p"), el("b", null, D.id[i]), " ", badge(r[0]), " " + (r[1] ? "leaf" : "non-leaf") + " requirement (" + D.kinds[D.k[i]] + "), level " + r[2] + ", at ", pos(D.f[i], D.l[i], D.c[i]), ": " + D.title[i]));
    if (D.body[i]) { box.appendChild(text(D.body[i])); }
    var a = attrsOf(i);
    if (a.length) {
      var dl = el("dl");
      for (var j = 0; j < a.length; j += 2) { add(dl, el("dt", null, a[j]), el("dd", null, a[j + 1])); }
      box.appendChild(dl);
    }
    section(box, "Why unsatisfied", r[8], reason);
    section(box, "Refines", r[4], linked);
    section(box, "Refined by", r[5], linked);
    section(box, "Verified by", r[6], test);
    section(box, "Implemented by", r[7], linked);
    section(box, "Notes", r[9], reason);
    td.appendChild(box);
    tr.appendChild(td);
    return tr;
  }

  // ---- updates ----
  var count = $("_count");
  function refresh(keepScroll) {
    buildItems();
    layout();
    count.textContent = shown + " of " + N + " requirements shown" + (st.view === "tree" && (st.status || st.kind || st.text.trim()) ? " (with the rows above them)" : "");
    range = [-1, -1];
    render(true);
    saveState();
  }
  function syncControls() {
    $("_v-tree").setAttribute("aria-pressed", st.view === "tree" ? "true" : "false");
    $("_v-list").setAttribute("aria-pressed", st.view === "list" ? "true" : "false");
    $("_f-status").value = st.status;
    $("_f-kind").value = st.kind;
    $("_f-text").value = st.text;
    $("_expand-all").hidden = $("_collapse-all").hidden = st.view !== "tree";
    colsList.querySelectorAll("input").forEach(function (b) { b.checked = st.cols.indexOf(b.value) >= 0; });
  }
  var colsList = $("_cols-list");
  D.all.forEach(function (c) {
    var lb = el("label"), cb = el("input");
    cb.type = "checkbox";
    cb.value = c;
    add(lb, cb, " " + COLS[c].head);
    colsList.appendChild(lb);
  });
  colsList.addEventListener("change", function () {
    st.cols = D.all.filter(function (c) {
      var b = colsList.querySelector('input[value="' + c + '"]');
      return b && b.checked;
    });
    buildHead();
    refresh();
  });
  $("_v-tree").addEventListener("click", function () { st.view = "tree"; syncControls(); refresh(); });
  $("_v-list").addEventListener("click", function () { st.view = "list"; syncControls(); refresh(); });
  $("_f-status").addEventListener("change", function () { st.status = this.value; refresh(); });
  $("_f-kind").addEventListener("change", function () { st.kind = this.value; refresh(); });
  var pending = false;
  $("_f-text").addEventListener("input", function () {
    st.text = this.value;
    if (!pending) {
      pending = true;
      requestAnimationFrame(function () { pending = false; refresh(); });
    }
  });
  $("_expand-all").addEventListener("click", function () { st.depth = 0; st.toggled = {}; refresh(); });
  $("_collapse-all").addEventListener("click", function () { st.depth = 1; st.toggled = {}; refresh(); });
  $("_reset").addEventListener("click", function () { st = freshState(); syncControls(); buildHead(); refresh(); });
  thead.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-col]");
    if (!b) { return; }
    var c = b.dataset.col;
    if (st.sort === c) { st.dir = -st.dir; } else { st.sort = c; st.dir = 1; }
    buildHead();
    refresh();
    var nb = thead.querySelector('button[data-col="' + c + '"]');
    if (nb) { nb.focus(); }
  });
  function toggleOpen(i) {
    var id = D.id[i];
    if (st.open[id]) { delete st.open[id]; } else { st.open[id] = 1; }
    refresh();
  }
  function toggleTree(i, d) {
    var id = D.id[i];
    if (st.toggled[id]) { delete st.toggled[id]; } else { st.toggled[id] = 1; }
    refresh();
  }
  tbody.addEventListener("click", function (e) {
    var tr = e.target.closest("tr.r");
    if (!tr) { return; }
    focusKey = tr.dataset.k;
    var it = items[+tr.dataset.k];
    if (e.target.closest("button.xb")) { toggleOpen(it.i); return; }
    if (e.target.closest(".tw:not(.leaf)")) { toggleTree(it.i, it.d); return; }
  });
  // Links to a row: scroll to it, highlight it, and keep the filters in
  // the URL (#!...&h=ID); the link itself reads #ID.
  document.addEventListener("click", function (e) {
    var a = e.target.closest('a[href^="#"]');
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var id = decodeURIComponent(a.getAttribute("href").slice(1));
    if (byID[id] === undefined) { return; }
    e.preventDefault();
    jump(id, true);
  });
  function itemOf(i) {
    for (var k = 0; k < items.length; k++) { if (items[k].i === i && !items[k].ref && !items[k].x) { return k; } }
    return -1;
  }
  function jump(id, push) {
    var i = byID[id];
    if (i === undefined) { return; }
    var k = itemOf(i);
    if (k < 0) {
      // Hidden by a filter or a closed branch: clear the filters, and
      // open the branches above it.
      st.status = st.kind = st.text = "";
      for (var p = D.rows[i][3], d = D.rows[i][2] - 2; p >= 0; p = D.rows[p][3], d--) {
        if (collapsed(p, d)) { st.toggled[D.id[p]] ? delete st.toggled[D.id[p]] : st.toggled[D.id[p]] = 1; }
      }
      syncControls();
      buildItems();
      layout();
      k = itemOf(i);
      count.textContent = shown + " of " + N + " requirements shown";
    }
    st.hl = id;
    if (push) { history.pushState(null, "", stateToHash()); } else { saveState(); }
    focusKey = String(k);
    window.scrollTo(0, bodyTop() + offsets[k] - Math.round(window.innerHeight / 3));
    range = [-1, -1];
    render(true);
    var tr = tbody.querySelector('tr.r[data-k="' + k + '"]');
    if (tr) { tr.focus({ preventScroll: true }); }
  }
  // Keyboard: the rows form one stop in the tab order; arrows move.
  tbody.addEventListener("keydown", function (e) {
    var tr = e.target.closest("tr.r");
    if (!tr || e.target.closest("a") && (e.key === "Enter" || e.key === " ")) { return; }
    var k = +tr.dataset.k, it = items[k], to = -1;
    switch (e.key) {
      case "ArrowDown": to = k + 1; while (to < items.length && items[to].x) { to++; } break;
      case "ArrowUp": to = k - 1; while (to >= 0 && items[to].x) { to--; } break;
      case "PageDown": to = Math.min(items.length - 1, k + 20); break;
      case "PageUp": to = Math.max(0, k - 20); break;
      case "Home": to = 0; break;
      case "End": to = items.length - 1; break;
      case "Enter": case " ": if (!it.ref) { toggleOpen(it.i); } else { jump(D.id[it.i], true); } e.preventDefault(); return;
      case "ArrowRight": if (st.view === "tree" && collapsed(it.i, it.d) && treeChildren()[it.i].length) { toggleTree(it.i, it.d); } e.preventDefault(); return;
      case "ArrowLeft":
        if (st.view === "tree" && !collapsed(it.i, it.d) && treeChildren()[it.i].length && !it.ref) { toggleTree(it.i, it.d); } else if (st.view === "tree" && D.rows[it.i][3] >= 0) { jump(D.id[D.rows[it.i][3]], false); }
        e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    if (to < 0 || to >= items.length) { return; }
    while (to > 0 && items[to].x) { to--; }
    focusKey = String(to);
    var y = bodyTop() + offsets[to];
    if (y < window.scrollY + 40 || y + ROW > window.scrollY + window.innerHeight) { window.scrollTo(0, y - Math.round(window.innerHeight / 2)); }
    range = [-1, -1];
    render(true);
    var f = tbody.querySelector('tr.r[data-k="' + to + '"]');
    if (f) { f.focus({ preventScroll: true }); }
  });
  tbody.addEventListener("focusin", function (e) {
    var tr = e.target.closest("tr.r");
    if (tr) { focusKey = tr.dataset.k; }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && !/^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName)) { e.preventDefault(); $("_f-text").focus(); }
  });
  var ticking = false;
  window.addEventListener("scroll", function () {
    if (!ticking) { ticking = true; requestAnimationFrame(function () { ticking = false; render(false); }); }
  }, { passive: true });
  var lastWidth = grid.clientWidth;
  window.addEventListener("resize", function () {
    if (grid.clientWidth !== lastWidth) { lastWidth = grid.clientWidth; buildHead(); }
    render(true);
  });
  // Printing lays out every row shown (and the open evidence), not only
  // those on screen.
  window.addEventListener("beforeprint", function () { printing = true; render(true); renderDiags(true); });
  window.addEventListener("afterprint", function () { printing = false; render(true); renderDiags(false); });
  window.addEventListener("hashchange", function () { fromHash(); });
  function fromHash() {
    var h = location.hash;
    if (h.indexOf("#!") === 0) {
      st = hashToState(h);
      syncControls();
      buildHead();
      refresh();
      if (st.hl && byID[st.hl] !== undefined) { jump(st.hl, false); }
      return;
    }
    var id = "";
    try { id = decodeURIComponent(h.slice(1)); } catch (e) { id = h.slice(1); }
    if (byID[id] !== undefined) { jump(id, false); }
  }

  // ---- diagnostics ----
  var dgrid = $("_dgrid");
  function renderDiags(all) {
    if (!dgrid) { return; }
    var sev = $("_d-sev").value, code = $("_d-code").value, q = $("_d-text").value.trim().toLowerCase();
    var list = [];
    D.diags.forEach(function (x, j) {
      if (sev !== "" && String(x[1]) !== sev) { return; }
      if (code !== "" && D.codes[x[0]] !== code) { return; }
      if (q && (D.files[x[3]] + ":" + x[4] + ":" + x[5] + " " + x[2] + " " + D.codes[x[0]]).toLowerCase().indexOf(q) < 0) { return; }
      list.push(j);
    });
    var limit = all || dgrid.dataset.all ? list.length : Math.min(list.length, 500);
    var t = el("table", "dg");
    var head = add(el("thead"), add(el("tr"), el("th", null, "Position"), el("th", null, "Severity"), el("th", null, "Code"), el("th", null, "Message")));
    head.querySelectorAll("th").forEach(function (th) { th.scope = "col"; });
    var b = el("tbody");
    for (var k = 0; k < limit; k++) {
      var x = D.diags[list[k]], sv = x[1] ? "warning" : "error";
      add(b, add(el("tr"), add(el("td"), pos(x[3], x[4], x[5])), add(el("td"), el("span", "sev-" + sv, sv)), el("td", null, D.codes[x[0]]), el("td", null, x[2])));
    }
    add(t, head, b);
    dgrid.replaceChildren(t);
    if (limit < list.length) {
      var more = el("button", null, "show all " + list.length);
      more.type = "button";
      more.addEventListener("click", function () { dgrid.dataset.all = "1"; renderDiags(false); });
      dgrid.appendChild(more);
    }
    $("_dcount").textContent = list.length + " of " + D.diags.length + " shown";
  }
  if (dgrid && D.diags.length) {
    var codes = {};
    D.diags.forEach(function (x) { codes[D.codes[x[0]]] = 1; });
    Object.keys(codes).sort().forEach(function (c) { add($("_d-code"), add(el("option", null, c), "")).lastChild.value = c; });
    ["_d-sev", "_d-code"].forEach(function (id) { $(id).addEventListener("change", function () { renderDiags(false); }); });
    $("_d-text").addEventListener("input", function () { renderDiags(false); });
    $("_dcontrols").hidden = false;
    renderDiags(false);
  }

  // ---- start ----
  var start = location.hash;
  if (start.indexOf("#!") === 0) { st = hashToState(start); }
  syncControls();
  buildHead();
  performance.mark("seg-head");
  $("_controls").hidden = false;
  $("_hint").hidden = false;
  refresh();
  performance.mark("seg-grid");
  // The search index is built before the page counts as loaded, so that
  // the first text filter is as quick as the next (at 50,000
  // requirements it adds about a fifth to the load; built when the page
  // was idle, a reader who typed at once waited for it instead).
  haystack();
  performance.mark("seg-index");
  if (start && start.indexOf("#!") !== 0) {
    var id = "";
    try { id = decodeURIComponent(start.slice(1)); } catch (e) { id = start.slice(1); }
    if (byID[id] !== undefined) { jump(id, false); }
  } else if (st.hl && byID[st.hl] !== undefined) {
    jump(st.hl, false);
  }
})();
