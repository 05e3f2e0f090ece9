#!/usr/bin/env bash
# Headless Neovim as a real LSP client of the built server (dist/server.js --stdio): diagnostics, hover,
# code action, applying it (didChange). Needs `apt-get install neovim` (bookworm: 0.7.2) and `npm run build`.
# Output and the server's stderr log go to ${VIS_E2E_OUT:-/tmp/vis-e2e}/nvim/. Exit 0 on pass.
# Neovim runs in a process group of its own, ended on exit, so that no server is left behind.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${VIS_E2E_OUT:-/tmp/vis-e2e}/nvim
command -v nvim >/dev/null || { echo "nvim not found (apt-get install -y neovim)" >&2; exit 2; }
[ -f "$ROOT/dist/server.js" ] || { echo "dist/server.js missing (npm run build)" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT/home" "$OUT/ws"
cp "$ROOT/test/e2e/fixtures/workspace/missing_alias.py" "$OUT/ws/"
export HOME=$OUT/home XDG_CONFIG_HOME=$OUT/home/config XDG_CACHE_HOME=$OUT/home/cache XDG_STATE_HOME=$OUT/home/state \
  XDG_DATA_HOME=$OUT/home/data TMPDIR=$OUT/home
export VIS_SERVER=$ROOT/dist/server.js VIS_FILE=$OUT/ws/missing_alias.py VIS_OUT=$OUT/result.txt
start=$(date +%s%N)
setsid timeout 60 nvim --headless -u NONE -i NONE -n -c "luafile $ROOT/scripts/e2e/nvim-check.lua" </dev/null &
pgid=$!
trap 'kill -TERM -- -$pgid 2>/dev/null || true' EXIT
rc=0
wait $pgid || rc=$?
echo "$(nvim --version | head -1), $(( ($(date +%s%N) - start) / 1000000 )) ms, rc=$rc"
cat "$OUT/result.txt" 2>/dev/null || echo "no result (see $XDG_CACHE_HOME/nvim/lsp.log)"
exit $rc
