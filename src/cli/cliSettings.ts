import type { EngineSettings } from '../shared/engineSettings';
import { engineSettingsSchema, resolveEngineSettings, strictEngineSettingsSchema } from '../shared/engineSettings';
import { effectiveBudget } from '../engine/engineState';
import { StrataError } from '../engine/ports';

/** The engine refuses a prompt budget below this many tokens (ContextEngine's constructor). */
const MIN_BUDGET_TOKENS = 2_000;

/** Settings with a flag of their own; every other one is changed with `--set name=value` (bench). */
const FLAG_OF: Readonly<Record<string, string>> = { contextWindow: '--window', promptBudgetTokens: '--budget' };

/** The command-line way to change an engine setting. */
export function flagFor(setting: string): string {
  return FLAG_OF[setting] ?? `--set ${setting}=<value>`;
}

/** `a=1,b=2` -> { a: 1, b: 2 } (numbers where they parse); names and ranges are checked by `cliSettings`. */
export function parseSet(spec: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of (spec ?? '').split(',').filter((p) => p.trim() !== '')) {
    const at = pair.indexOf('=');
    const key = at < 0 ? '' : pair.slice(0, at).trim();
    const value = at < 0 ? '' : pair.slice(at + 1).trim();
    if (!key || !value) throw new StrataError(`--set takes name=value pairs separated by commas, got '${pair}'.`, 'usage');
    out[key] = Number.isFinite(Number(value.replace(/_/g, ''))) ? Number(value.replace(/_/g, '')) : value;
  }
  return out;
}

/**
 * Engine settings from command-line input: unknown names (a typo in `--set`) and values out of
 * range are usage errors that name the flag to change, never a silent default.
 */
export function cliSettings(input: Record<string, unknown>): EngineSettings {
  const parsed = strictEngineSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `--set: unknown setting ${issue.keys.map((k) => `'${k}'`).join(', ')}; known settings: ${Object.keys(engineSettingsSchema.shape).filter((k) => k !== 'contextWindow').join(', ')}`;
      }
      const name = String(issue.path[0] ?? 'settings');
      return `${flagFor(name)}: ${issue.message}`;
    });
    throw new StrataError(`Invalid setting: ${problems.join('; ')}.`, 'usage');
  }
  let settings: EngineSettings;
  try {
    settings = resolveEngineSettings(input);
  } catch (error) {
    throw new StrataError(`${inCliTerms(error instanceof Error ? error.message : String(error))}`, 'usage');
  }
  const budget = effectiveBudget(settings);
  if (budget < MIN_BUDGET_TOKENS) {
    throw new StrataError(
      `The prompt budget at window ${settings.contextWindow} is ${budget} tokens (min(--budget ${settings.promptBudgetTokens}, window - reservedOutputTokens ${settings.reservedOutputTokens})), below the ${MIN_BUDGET_TOKENS} the engine needs. Raise --window or lower --set reservedOutputTokens.`,
      'usage',
    );
  }
  return settings;
}

/** Rewrites an engine or settings message for the command line: `strata.promptBudgetTokens` becomes `--budget`. */
export function inCliTerms(message: string): string {
  return message
    .replace(/ ?Fix them in settings \(strata\.\*\) or the command line\./, '')
    .replace(/\bstrata\.(\w+)/g, (_, name: string) => flagFor(name))
    .replace(/\b(workingMemoryMax|workingMemoryMin) \((\d+)\)/g, (_, name: string, value: string) => `${name} (${value}, ${flagFor(name)})`);
}
