-- A real editor session against `seg lsp`, run by TestNeovim:
--   nvim --headless -u NONE -i NONE -n -c "luafile neovim.lua"
-- with SEG_BIN (the seg binary) and SEG_ROOT (a copy of the protocol
-- tests' fixture tree) in the environment. Every step checks what the
-- editor shows; the first failure quits with exit code 1 and says why on
-- standard error. Success prints "neovim: all steps passed".

local bin, root = os.getenv('SEG_BIN'), os.getenv('SEG_ROOT')

local function fail(msg)
  io.stderr:write('neovim: FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function check(cond, msg)
  if not cond then fail(msg) end
end

local function step(name)
  io.stderr:write('neovim: ' .. name .. '\n')
end

-- 1. Attach seg lsp to a buffer and wait for its diagnostics.
step('open docs/tests.rst and attach seg lsp')
vim.cmd('edit ' .. root .. '/docs/tests.rst')
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'seg',
  cmd = { bin, 'lsp', '--at', '2026-11-29' },
  root_dir = root,
})
check(id, 'vim.lsp.start_client failed')
vim.lsp.buf_attach_client(buf, id)
local client = vim.lsp.get_client_by_id(id)
check(vim.wait(30000, function() return client.initialized end, 20), 'the server did not initialize')

step('wait for diagnostics')
local function diag(code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then return d end
  end
end
check(vim.wait(30000, function() return diag('unresolved-link') ~= nil end, 20), 'no unresolved-link diagnostic')
-- Neovim shows byte columns: the server's UTF-16 columns came through
-- the non-ASCII "É" before REQ-3 right.
local d = diag('unresolved-link')
for _, x in ipairs(vim.diagnostic.get(buf)) do
  if x.code == 'unresolved-link' and x.col > d.col then d = x end
end
check(d.lnum == 2 and d.col == 31 and d.end_col == 46,
  string.format('unresolved-link REQ-3 at %d:%d-%d, want 2:31-46', d.lnum, d.col, d.end_col))
check(d.message:find('did you mean "REQ-1"', 1, true), 'message: ' .. d.message)
check(d.severity == vim.diagnostic.severity.ERROR, 'severity ' .. tostring(d.severity))
local u = diag('unknown-option')
check(u and u.lnum == 7 and u.col == 4, 'no unknown-option at 7:4')

-- 2. Go to definition: from REQ-1 in TS-1's :verifies: to its directive.
step('go to definition')
vim.api.nvim_win_set_cursor(0, { 3, 16 }) -- line 3 (1-based), on "REQ-1"
vim.lsp.buf.definition()
check(vim.wait(10000, function()
  return vim.api.nvim_buf_get_name(0):match('docs/req%.rst$') ~= nil
end, 20), 'definition did not open docs/req.rst')
local cur = vim.api.nvim_win_get_cursor(0)
check(cur[1] == 4 and cur[2] == 0, string.format('cursor at %d:%d, want 4:0', cur[1], cur[2]))
local reqbuf = vim.api.nvim_get_current_buf()
-- Neovim 0.7 attaches only the buffers it is told to (lspconfig would
-- do it by file type).
vim.lsp.buf_attach_client(reqbuf, id)
check(vim.wait(10000, function() return vim.lsp.buf_is_attached(reqbuf, id) end, 20), 'req.rst not attached')

-- 3. References of REQ-1, from its :id: line.
step('find references')
vim.api.nvim_win_set_cursor(0, { 5, 9 })
local params = vim.lsp.util.make_position_params()
params.context = { includeDeclaration = true }
local res = client.request_sync('textDocument/references', params, 10000, reqbuf)
check(res and res.result, 'no references result: ' .. vim.inspect(res))
local refs = {}
for _, loc in ipairs(res.result) do
  table.insert(refs, vim.fn.fnamemodify(vim.uri_to_fname(loc.uri), ':t') .. ':' .. loc.range.start.line .. ':' .. loc.range.start.character)
end
table.sort(refs)
-- (brake.py's code tag names REQ-1: seg.toml's [code] reads src/.)
check(vim.deep_equal(refs, { 'brake.py:1:14', 'req.rst:4:8', 'tests.rst:2:14', 'tests.rst:6:16' }), 'references: ' .. vim.inspect(refs))

-- 4. Hover on REQ-1.
step('hover')
res = client.request_sync('textDocument/hover', vim.lsp.util.make_position_params(), 10000, reqbuf)
check(res and res.result and res.result.contents, 'no hover')
local hover = res.result.contents.value
check(hover:find('**requirement** `REQ-1`', 1, true), 'hover: ' .. hover)
check(hover:find('**satisfied**', 1, true), 'hover: ' .. hover)
check(hover:find('revision `%x+`'), 'no revision in the hover: ' .. hover)

-- 4b. Hover on SYS-1: unproven, its revision, and the stale link from REQ-2.
step('hover: status, revision, stale link')
vim.api.nvim_win_set_cursor(0, { 8, 9 }) -- SYS-1's :id:
res = client.request_sync('textDocument/hover', vim.lsp.util.make_position_params(), 10000, reqbuf)
check(res and res.result and res.result.contents, 'no hover on SYS-1')
hover = res.result.contents.value
check(hover:find('**unproven**', 1, true), 'hover: ' .. hover)
local sysrev = hover:match('revision `(%x+)`')
check(sysrev, 'no revision of SYS-1: ' .. hover)
check(hover:find('link `REQ-2 refines SYS-1` is **stale**', 1, true), 'no stale link in the hover: ' .. hover)

-- 4c. Statuses in the open document: SYS-1's code lens, with the
-- evaluation's counts and first reason, and its status as a diagnostic
-- of severity information (not a warning).
step('status: code lens and information diagnostic')
res = client.request_sync('textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(reqbuf) } }, 10000, reqbuf)
check(res and res.result, 'no code lens result: ' .. vim.inspect(res))
local lens
for _, l in ipairs(res.result) do
  if l.range.start.line == 6 then lens = l end
end
check(lens and lens.command and lens.command.title == 'unproven · 0 tests · 0 impls: refined by "REQ-2", which is unsatisfied',
  'code lens of SYS-1: ' .. vim.inspect(res.result))
check(vim.wait(10000, function()
  for _, x in ipairs(vim.diagnostic.get(reqbuf)) do
    if x.lnum == 6 and x.code == 'unsatisfied' then return x.severity == vim.diagnostic.severity.INFO end
  end
end, 20), 'no information diagnostic for SYS-1: ' .. vim.inspect(vim.diagnostic.get(reqbuf)))

-- 5. Completion of a :verifies: entry in an unsaved edit of tests.rst.
step('completion')
vim.cmd('buffer ' .. buf)
vim.api.nvim_buf_set_lines(buf, 17, 18, false, { '   :verifies: RE' })
vim.api.nvim_win_set_cursor(0, { 18, 16 })
res = client.request_sync('textDocument/completion', vim.lsp.util.make_position_params(), 10000, buf)
check(res and res.result, 'no completion result')
local labels = {}
for _, it in ipairs(res.result.items or res.result) do table.insert(labels, it.label) end
table.sort(labels)
check(vim.deep_equal(labels, { 'REQ-1', 'REQ-2' }), 'completion: ' .. vim.inspect(labels))
-- TS-2 now verifies "RE": an unresolved link the buffer has and the disk has not.
check(vim.wait(10000, function()
  for _, x in ipairs(vim.diagnostic.get(buf)) do
    if x.lnum == 17 and x.code == 'unresolved-link' then return true end
  end
end, 20), 'the unsaved edit made no diagnostic')

-- 6. Apply the "did you mean" of the unknown option.
step('code action')
res = client.request_sync('textDocument/codeAction', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = 7, character = 0 }, ['end'] = { line = 7, character = 12 } },
  context = { diagnostics = {} },
}, 10000, buf)
check(res and res.result and #res.result > 0, 'no code action: ' .. vim.inspect(res))
local action
for _, a in ipairs(res.result) do
  if a.title == 'Change to "source"' then action = a end
end
check(action and action.edit, 'no "Change to source" action: ' .. vim.inspect(res.result))
vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
local line = vim.api.nvim_buf_get_lines(buf, 7, 8, false)[1]
check(line == '   :source: x.c', 'after the action: ' .. line)
check(vim.wait(10000, function() return diag('unknown-option') == nil end, 20), 'the unknown-option diagnostic stayed')

-- 6b. Accept the stale link: the edit goes to seg.lock (not saved, so
-- the tree on disk does not change).
step('accept a stale link')
local stale
check(vim.wait(10000, function()
  for _, x in ipairs(vim.diagnostic.get(reqbuf)) do
    if x.code == 'stale-link' then stale = x return true end
  end
end, 20), 'no stale-link diagnostic in req.rst')
check(stale.lnum == 11 and stale.col == 16, string.format('stale-link at %d:%d, want 11:16', stale.lnum, stale.col))
res = client.request_sync('textDocument/codeAction', {
  textDocument = { uri = vim.uri_from_bufnr(reqbuf) },
  range = { start = { line = 11, character = 17 }, ['end'] = { line = 11, character = 17 } },
  context = { diagnostics = {} },
}, 10000, reqbuf)
check(res and res.result and #res.result == 1, 'accept: ' .. vim.inspect(res))
check(res.result[1].title == 'Accept the link: pin it in seg.lock to its target\'s revision ' .. sysrev, 'title: ' .. res.result[1].title)
vim.lsp.util.apply_workspace_edit(res.result[1].edit, client.offset_encoding)
local lockbuf = vim.fn.bufnr(root .. '/seg.lock')
check(lockbuf > 0, 'seg.lock was not loaded')
local lockline = vim.api.nvim_buf_get_lines(lockbuf, 0, 1, false)[1]
check(lockline == 'REQ-2 refines SYS-1 ' .. sysrev, 'seg.lock after the action: ' .. lockline)

-- 6c. A source file with a code tag: an unsaved tag naming an ID that
-- does not exist is a diagnostic in it; go to definition from the tag's
-- REQ-1 leads to its directive.
step('source file with a code tag')
vim.cmd('edit ' .. root .. '/src/brake.py')
local pybuf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(pybuf, id)
check(vim.wait(10000, function() return vim.lsp.buf_is_attached(pybuf, id) end, 20), 'brake.py not attached')
vim.api.nvim_buf_set_lines(pybuf, 1, 2, false, { '    # req-Id: REQ-1, REQ-77' })
check(vim.wait(10000, function()
  for _, x in ipairs(vim.diagnostic.get(pybuf)) do
    if x.code == 'unresolved-link' and x.lnum == 1 and x.col == 21 then return true end
  end
end, 20), 'no unresolved-link for REQ-77 in brake.py: ' .. vim.inspect(vim.diagnostic.get(pybuf)))
vim.api.nvim_win_set_cursor(0, { 2, 16 }) -- on REQ-1
vim.lsp.buf.definition()
check(vim.wait(10000, function()
  return vim.api.nvim_buf_get_name(0):match('docs/req%.rst$') ~= nil
end, 20), 'definition from the code tag did not open docs/req.rst')
cur = vim.api.nvim_win_get_cursor(0)
check(cur[1] == 4 and cur[2] == 0, string.format('cursor at %d:%d, want 4:0', cur[1], cur[2]))

-- 7. Shut down: the server exits 0 after shutdown and exit.
step('shutdown')
client.stop()
check(vim.wait(10000, function() return client.is_stopped() end, 20), 'the server did not stop')
io.stdout:write('neovim: all steps passed\n')
vim.cmd('qa!')
