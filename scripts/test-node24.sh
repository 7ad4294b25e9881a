#!/usr/bin/env bash
# The archive suite on Node 24.21.0 from the registry (scripts/setup-node24.sh), where the archive is
# on node:sqlite: the better-sqlite3 binary installed for the machine's Node 20 does not load there.
# vitest's workers and every process.execPath a test spawns (dist/cli.js) run on that Node too.
# `npm run test:node24`, called by `npm test`; extra arguments replace the file list.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE="$(bash scripts/setup-node24.sh)"
FILES=(
  test/unit/sqliteDrivers.test.ts
  test/unit/archiveStore.test.ts
  test/unit/archiveDurability.test.ts
  test/unit/archiveSupersede.test.ts
  test/unit/sqliteArchiveEdges.test.ts
  test/unit/archiveBrowser.test.ts
  test/unit/archiveStatus.test.ts
  test/unit/importSession.test.ts
  test/unit/cliImport.test.ts
  test/unit/replayResume.test.ts
)
if [ "$#" -gt 0 ]; then FILES=("$@"); fi
echo "strata: the archive suite on Node $("$NODE" --version) (node:sqlite)" >&2
exec "$NODE" node_modules/vitest/vitest.mjs run "${FILES[@]}"
