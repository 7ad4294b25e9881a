#!/usr/bin/env bash
# Installs VS Code (code-server 4.100.3 = VS Code 1.100.3, the last that runs on Node 20) into
# .tools/code-server/, as ../shared/notes/real-vscode-here.md describes: npm with scripts off,
# then the native modules rebuilt from source (nothing can be downloaded from GitHub here).
# Idempotent: a marker file records the installed version; a second run returns at once.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=4.100.3
TOOLS="$PWD/.tools/code-server"
MARKER="$TOOLS/.installed-$VERSION"
if [ -f "$MARKER" ]; then exit 0; fi

bash scripts/ensure-apt.sh

echo "strata: installing code-server $VERSION into $TOOLS (about 2 minutes on 2 cores)"
rm -rf "$TOOLS"
mkdir -p "$TOOLS"
cd "$TOOLS"
# Its own package.json, else npm installs into the nearest parent that has one (the project).
echo '{ "name": "strata-tools-code-server", "private": true }' > package.json
export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
npm install --ignore-scripts --save-exact "code-server@$VERSION"
(
  cd node_modules/code-server/lib/vscode
  npm install --omit=dev --ignore-scripts
  npm rebuild kerberos node-pty @parcel/watcher @vscode/spdlog native-watchdog
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  ln -sfn node_modules node_modules.asar
  (cd extensions && npm install --omit=dev --ignore-scripts)
)
npm rebuild argon2
test -f node_modules/code-server/out/node/entry.js
touch "$MARKER"
echo "strata: code-server $VERSION ready"
