import type { Logger } from '../engine/ports';

/** Writes warnings and errors to stderr (info only when verbose); never writes secrets it was not given. */
export function stderrLogger(verbose = false): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    info: (m) => {
      if (verbose) process.stderr.write(`strata: ${m}\n`);
    },
    warn: (m) => {
      warnings.push(m);
      process.stderr.write(`strata: warning: ${m}\n`);
    },
    error: (m) => process.stderr.write(`strata: error: ${m}\n`),
  };
}
