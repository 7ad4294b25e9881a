import { afterEach, describe, expect, it, vi } from 'vitest';
import { stderrLogger } from '../../src/adapters/streamLogger';

// The CLI's logger: what reaches stderr, with which prefix, and which warnings it keeps.

afterEach(() => vi.restoreAllMocks());

/** Everything written to stderr while `run` runs. */
function stderrOf(run: () => void): string {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  run();
  vi.restoreAllMocks();
  return written.join('');
}

describe('stderrLogger', () => {
  it('writes warnings and errors, and keeps the warnings; info stays quiet by default', () => {
    const logger = stderrLogger();
    const out = stderrOf(() => {
      logger.info('starting');
      logger.warn('archive is large');
      logger.error('cannot open archive');
      logger.warn('slow disk');
    });
    expect(out).toBe('strata: warning: archive is large\nstrata: error: cannot open archive\nstrata: warning: slow disk\n');
    expect(logger.warnings).toEqual(['archive is large', 'slow disk']);
  });

  it('writes info too when verbose', () => {
    const logger = stderrLogger(true);
    expect(stderrOf(() => logger.info('starting'))).toBe('strata: starting\n');
    expect(stderrLogger(false).warnings).toEqual([]);
    expect(stderrOf(() => stderrLogger(false).info('quiet'))).toBe('');
  });
});
