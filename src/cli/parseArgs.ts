import { StrataError } from '../engine/ports';

type Kind = 'string' | 'number' | 'boolean';
type Value<K extends Kind> = K extends 'number' ? number : K extends 'boolean' ? boolean : string;

/** Parses `--name value` flags by a spec; unknown flags and bad numbers are usage errors. */
export function parseArgs<S extends Record<string, Kind>>(argv: string[], spec: S): { positional: string[]; options: { [K in keyof S]?: Value<S[K]> } } {
  const positional: string[] = [];
  const options: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const kind = spec[name];
    if (!kind) throw new StrataError(`Unknown option ${arg}.`, 'usage');
    if (kind === 'boolean') {
      options[name] = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new StrataError(`Option ${arg} needs a value.`, 'usage');
    if (kind === 'number') {
      const n = Number(value.replace(/_/g, ''));
      if (!Number.isFinite(n) || n <= 0) throw new StrataError(`Option ${arg} needs a positive number, got '${value}'.`, 'usage');
      options[name] = n;
    } else {
      options[name] = value;
    }
  }
  return { positional, options: options as { [K in keyof S]?: Value<S[K]> } };
}
