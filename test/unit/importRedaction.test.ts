import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import type { Logger } from '../../src/engine/ports';
import { importSessions } from '../../src/host/importSession';
import { useTempDirs } from '../support/tempDirs';

/** An imported transcript's tool output enters the archive redacted, as a chat's would. */
const CLAUDE_FILE = join(__dirname, '..', 'fixtures', 'import', 'claude-code', '-home-dev-calc', '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e.jsonl');
const tempDir = useTempDirs('strata-import-redaction-');
const logger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

describe('importSessions redacts secrets', () => {
  it("the user's key and known formats in a Claude Code transcript's tool output never reach the archive", async () => {
    const dir = tempDir();
    const key = `sk-ant-api03-${randomBytes(20).toString('hex')}`;
    const awsSecret = `Aw${randomBytes(19).toString('hex')}`;
    // The transcript's failing-test output now also shows an environment dump.
    const planted = `FAIL src/math.test.ts\\nANTHROPIC_API_KEY=${key}\\nAWS_SECRET_ACCESS_KEY=${awsSecret}`;
    const text = readFileSync(CLAUDE_FILE, 'utf8').replace('FAIL src/math.test.ts', planted);
    expect(text).toContain(awsSecret);
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, text);
    const archivePath = join(dir, 'archive.sqlite');
    const result = await importSessions(file, { archivePath, from: 'claude-code', logger, secrets: [key] });
    expect(result.failed).toEqual([]);
    const archive = openSqliteArchive(archivePath);
    try {
      const id = archive.listSessions()[0]!;
      const bodies = JSON.stringify(Array.from({ length: archive.lastSeq(id) }, (_, i) => archive.get(id, i + 1)!.full));
      expect(bodies).toContain('ANTHROPIC_API_KEY=[redacted: session-key]');
      expect(bodies).toContain('AWS_SECRET_ACCESS_KEY=[redacted: aws-secret]');
      expect(archive.searchAll(awsSecret, 5)).toEqual([]);
    } finally {
      archive.close();
    }
    const bytes = readFileSync(archivePath, 'latin1');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain(awsSecret);
  });
});
