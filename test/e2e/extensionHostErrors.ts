import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The errors the extension hosts of a run logged whose stack passes through Strata's bundle
 * (`strata-dev.strata-<version>/dist/`), each as its first line. `logsDir` is the user-data
 * folder's `logs/`: one folder per window start, an `exthost<N>/remoteexthost.log` per host.
 */
export function strataErrorsInExtensionHostLogs(logsDir: string): string[] {
  const found: string[] = [];
  if (!existsSync(logsDir)) return found;
  for (const start of readdirSync(logsDir)) {
    const folder = join(logsDir, start);
    for (const host of existsSync(folder) && !folder.endsWith('.log') ? readdirSync(folder).filter((name) => name.startsWith('exthost')) : []) {
      const file = join(folder, host, 'remoteexthost.log');
      if (!existsSync(file)) continue;
      // An entry starts with a timestamp; its stack lines follow it.
      const entries = readFileSync(file, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d )/);
      for (const entry of entries) {
        if (/^\S+ \S+ \[error\]/.test(entry) && /strata-dev\.strata-[^/]*\/dist\//.test(entry)) found.push(`${host}: ${entry.split('\n')[0]}`);
      }
    }
  }
  return found;
}
