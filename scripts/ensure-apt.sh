#!/usr/bin/env bash
# Installs from Debian what the real-VS-Code tests and `npm start` need, only what is missing:
# kerberos headers (code-server's native `kerberos` module builds against them), ripgrep
# (workbench search; @vscode/ripgrep cannot download its binary offline) and Chromium
# (driven by playwright-core). Needs root, as in CI; otherwise it prints the command to run.
# `--check` only tells: exit 0 when nothing is missing, 1 otherwise; nothing is installed.
set -euo pipefail

missing=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v rg >/dev/null || missing+=(ripgrep)
command -v chromium >/dev/null || missing+=(chromium)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "${1:-}" = "--check" ]; then exit 1; fi

if [ "$(id -u)" -ne 0 ]; then
  echo "strata: missing Debian packages: ${missing[*]}" >&2
  echo "strata: run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "strata: installing ${missing[*]} from Debian"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
