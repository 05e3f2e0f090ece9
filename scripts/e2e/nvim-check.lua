-- Headless Neovim (0.7+) as an LSP client of dist/server.js: diagnostics, hover, code action, didChange.
-- Run by scripts/e2e/nvim-check.sh, which sets VIS_SERVER, VIS_FILE and VIS_OUT. Uses vim.lsp.start_client
-- (vim.lsp.start is 0.8+). Prints one line per observation; quits with :cq (exit 1) on a failed expectation.
local out, lines, failures = vim.env.VIS_OUT, {}, 0
local function log(s) table.insert(lines, s) end
local function expect(cond, what) if not cond then failures = failures + 1; log('FAIL ' .. what) else log('ok   ' .. what) end end
local function finish()
  log(failures == 0 and 'NVIM PASS' or ('NVIM FAIL (' .. failures .. ')'))
  vim.fn.writefile(lines, out)
  vim.cmd(failures == 0 and 'qa!' or 'cq!')
end

local published = nil
local client_id = vim.lsp.start_client({
  name = 'vis-authoring',
  cmd = { 'node', vim.env.VIS_SERVER, '--stdio' },
  root_dir = vim.fn.fnamemodify(vim.env.VIS_FILE, ':h'),
  settings = { visAuthoring = { enable = true } },
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      published = result
      return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
    end,
  },
})
if not client_id then log('FAIL start_client'); failures = 1; return finish() end
local t0 = vim.loop.hrtime()
local function ms() return string.format('%d ms', (vim.loop.hrtime() - t0) / 1e6) end

vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.VIS_FILE))
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)

local function codes(diags)
  local c = {}
  for _, d in ipairs(diags) do table.insert(c, d.code) end
  table.sort(c)
  return table.concat(c, ',')
end
local function wait_codes(want, timeout)
  return vim.wait(timeout, function() return published ~= nil and codes(published.diagnostics) == want end, 20)
end

-- 1. diagnostics
local got = wait_codes('EXT-003,EXT-005', 10000)
log('after ' .. ms())
for _, d in ipairs(published and published.diagnostics or {}) do
  log(string.format('DIAG %d:%d-%d:%d sev=%d %s %s %s', d.range.start.line, d.range.start.character,
    d.range['end'].line, d.range['end'].character, d.severity, d.source, d.code, d.message))
end
expect(got, 'diagnostics EXT-003,EXT-005')
if not got then return finish() end
local ext005
for _, d in ipairs(published.diagnostics) do if d.code == 'EXT-005' then ext005 = d end end

-- 2. hover (recorded; may be empty)
local uri = vim.uri_from_bufnr(bufnr)
local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 2, character = 30 } }, 5000)
for _, r in pairs(res or {}) do
  if r.err then log('HOVER-ERR ' .. vim.inspect(r.err))
  elseif r.result then local c = r.result.contents; log('HOVER ' .. (type(c) == 'table' and (c.value or vim.inspect(c)) or tostring(c)))
  else log('HOVER (none)') end
end

-- 3. code action on EXT-005
res = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
  textDocument = { uri = uri }, range = ext005.range, context = { diagnostics = { ext005 }, only = { 'quickfix' } },
}, 5000)
local fix
for _, r in pairs(res or {}) do
  for _, a in ipairs(r.result or {}) do
    log('ACTION ' .. a.title .. ' kind=' .. tostring(a.kind))
    if a.title == 'Add alias="ext"' then fix = a end
  end
end
expect(fix ~= nil, 'code action Add alias="ext"')
if not fix then return finish() end

-- 4. apply it (didChange) -> EXT-005 goes away
published = nil
vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
log('LINE ' .. vim.api.nvim_buf_get_lines(bufnr, 3, 4, false)[1])
expect(wait_codes('EXT-003', 5000), 'after the fix only EXT-003 (' .. ms() .. ')')

-- 5. type a name -> no diagnostics
published = nil
vim.api.nvim_buf_set_text(bufnr, 2, 43, 2, 43, { 'demo' })
expect(wait_codes('', 5000), 'after typing a name no diagnostics (' .. ms() .. ')')

vim.lsp.stop_client(client_id)
finish()
