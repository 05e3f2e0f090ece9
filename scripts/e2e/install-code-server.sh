#!/usr/bin/env bash
# Install code-server (real VS Code, server side) for the e2e check, outside the repo.
#
# Staged install of code-server 4.100.3 (VS Code 1.100.3) on the system Node 20, using only the npm
# registry and Debian apt: the plain `npm i code-server` fails here (its postinstall downloads ripgrep
# from GitHub, and node-pty runs `npx node-gyp` while ~/.npmrc says yes=false).
#
# Idempotent: when $VIS_E2E_CACHE/code-server-<ver>/.installed exists it only prints the binary path.
# Prints the absolute path of the code-server launcher as its last line of stdout.
#
#   VIS_E2E_CACHE   cache dir (default /tmp/vis-e2e-cache)
#   CS_VER          code-server version (default 4.100.3; newer versions need a newer Node)
#   VIS_E2E_APT=0   do not apt-get the prerequisites (default: install them when missing)
set -euo pipefail
CS_VER=${CS_VER:-4.100.3}
CACHE=${VIS_E2E_CACHE:-/tmp/vis-e2e-cache}
DEST=$CACHE/code-server-$CS_VER
LAUNCHER=$DEST/node_modules/.bin/code-server

if [ -f "$DEST/.installed" ] && [ -x "$LAUNCHER" ]; then
  echo "$LAUNCHER"
  exit 0
fi

log() { echo "[install-code-server] $*" >&2; }

# Prerequisites: compilers for the native modules, Kerberos headers (kerberos module), Debian's ripgrep
# (replaces the GitHub download), chromium (the browser the runner drives).
need=()
command -v g++ >/dev/null || need+=(build-essential)
command -v python3 >/dev/null || need+=(python3)
[ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v rg >/dev/null || need+=(ripgrep)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "${VIS_E2E_APT:-1}" = 0 ]; then log "missing prerequisites: ${need[*]}"; exit 1; fi
  log "apt-get install ${need[*]}"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 "${need[@]}" >&2
fi

# Build in a staging dir next to the destination, move it into place only when complete.
mkdir -p "$CACHE"
STAGE=$(mktemp -d "$CACHE/.stage-code-server-$CS_VER.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
export npm_config_yes=true          # node-pty's install runs `npx node-gyp configure`
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
t0=$(date +%s)
(
  cd "$STAGE"
  echo '{"name":"vis-e2e-code-server","private":true}' > package.json
  # 1. code-server itself, without its postinstall (which would download ripgrep).
  log "npm i --ignore-scripts code-server@$CS_VER"
  npm i --ignore-scripts --no-save "code-server@$CS_VER" >&2
  npm rebuild argon2 --foreground-scripts >&2      # no reachable prebuild -> node-gyp source build
  cd node_modules/code-server/lib/vscode
  # 2. VS Code server dependencies without scripts; then Debian's rg where @vscode/ripgrep expects it.
  log "VS Code server dependencies"
  npm install --omit=dev --ignore-scripts >&2
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  # 3. All install scripts: native modules build with node-gyp; ripgrep's postinstall sees bin/rg and exits.
  log "npm rebuild (native modules)"
  npm rebuild --foreground-scripts >&2
  # 4. The rest of code-server's postinstall.sh.
  rm -rf node_modules.asar && ln -s node_modules node_modules.asar
  ( cd bin/remote-cli && rm -f code-server && ln -s code-linux.sh code-server )
  ( cd bin/helpers && rm -f browser.sh && ln -s browser-linux.sh browser.sh )
  log "built-in extensions dependencies"
  ( cd extensions && npm install --omit=dev --foreground-scripts >&2 )
)
[ -f "$STAGE/node_modules/code-server/out/node/entry.js" ] || { log "install incomplete"; exit 1; }
touch "$STAGE/.installed"
rm -rf "$DEST"
mv "$STAGE" "$DEST"
trap - EXIT
log "code-server $CS_VER installed in $DEST in $(( $(date +%s) - t0 )) s"
echo "$LAUNCHER"
