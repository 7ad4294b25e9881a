import type { z } from 'zod';
import { engineSettingsSchema, type EngineSettings } from '../shared/engineSettings';

/**
 * What the manifest and the settings reader need to know about each engine setting, read
 * from `engineSettingsSchema` itself (default, range) so neither can drift from it.
 * No `vscode` import: tests and the manifest generator run it in plain Node.
 */
export type SettingSpec =
  | { key: EngineKey; kind: 'integer' | 'number'; default: number; minimum: number; maximum: number }
  | { key: EngineKey; kind: 'string'; default: string | undefined; maxLength: number }
  | { key: EngineKey; kind: 'enum'; default: string; options: readonly string[] };

export type EngineKey = keyof EngineSettings;

interface ZodDefLike {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
}
interface NumberLike {
  minValue: number | null;
  maxValue: number | null;
  isInt: boolean;
}

/**
 * A bound the schema states: zod 4 reports a missing one as an infinity (or null), and `.int()`
 * alone as the safe-integer limit, none of which a settings editor can offer as a range.
 */
function declaredBound(bound: number | null): bound is number {
  return bound !== null && Math.abs(bound) < Number.MAX_SAFE_INTEGER;
}

function defOf(schema: z.ZodType): ZodDefLike {
  return (schema as unknown as { def: ZodDefLike }).def;
}

/** One spec per key of `engineSettingsSchema`, in the schema's order. */
export function engineSettingSpecs(): SettingSpec[] {
  const shape = engineSettingsSchema.shape as Record<EngineKey, z.ZodType>;
  return (Object.keys(shape) as EngineKey[]).map((key) => settingSpecFor(key, shape[key]));
}

/**
 * The spec of one schema field: a number needs a minimum, a maximum and a default, a string a
 * maximum length, a choice a default; any other type throws, naming the key (a schema change
 * must decide how the setting is shown). Exported for its tests.
 */
export function settingSpecFor(key: EngineKey, schema: z.ZodType): SettingSpec {
  let inner = schema;
  let def: unknown;
  for (let d = defOf(inner); (d.type === 'default' || d.type === 'optional') && d.innerType; d = defOf(inner)) {
    if (d.type === 'default') def = d.defaultValue;
    inner = d.innerType;
  }
  const innerType = defOf(inner).type;
  if (innerType === 'number') {
    const n = inner as unknown as NumberLike;
    if (!declaredBound(n.minValue) || !declaredBound(n.maxValue) || typeof def !== 'number') {
      throw new Error(`engineSettingsSchema.${key} needs a minimum, a maximum and a default to become a setting.`);
    }
    return { key, kind: n.isInt ? 'integer' : 'number', default: def, minimum: n.minValue, maximum: n.maxValue };
  }
  if (innerType === 'string') {
    const maxLength = (inner as unknown as { maxLength: number | null }).maxLength;
    if (maxLength === null) throw new Error(`engineSettingsSchema.${key} needs a maximum length to become a setting.`);
    return { key, kind: 'string', default: typeof def === 'string' ? def : undefined, maxLength };
  }
  if (innerType === 'enum') {
    const options = (inner as unknown as { options: readonly string[] }).options;
    if (typeof def !== 'string') throw new Error(`engineSettingsSchema.${key} needs a default to become a setting.`);
    return { key, kind: 'enum', default: def, options };
  }
  throw new Error(`engineSettingsSchema.${key} has type ${innerType}, which settingsSpec.ts does not map to a setting yet.`);
}

/** Settings page groups (VS Code shows each as a titled section), with what each key means and its unit. */
export const ENGINE_SETTING_GROUPS: ReadonlyArray<{ title: string; keys: Partial<Record<EngineKey, string>> }> = [
  {
    title: 'Window and budget',
    keys: {
      contextWindow: "The model's context window, in tokens.",
      contextPreset:
        "How far the prompt budget follows a long session: `economy` keeps the base budget (cheapest, forgets most of a long session), `balanced` grows it to hold the largest file read whole, and to 1.5x the history, up to the window's share, once the history passes 2.5x the base (from the start if a file read whole is over a quarter of the base), taking back what the base had folded, `full-recall` keeps what a sliding window would from the start (costs about full history's price on sessions that fit the window). The budget settings bound every preset; docs/bench.md has each preset's measured cost and recall.",
      reservedOutputTokens: "Tokens kept free for the model's answer. Unset, a chat keeps the model's output limit, at most 16,000, and the default below applies to `strata replay` and the bench.",
      promptBudgetPercent: 'Prompt budget as a share of (window - reserved output), in percent: the high watermark at which a re-layering step hands history down.',
      promptBudgetTokens: "Strata's base budget for one prompt, in tokens: the smaller of this and the share holds while the session is short; `strata.contextPreset` decides how a long session's budget grows past it, up to the share.",
      lowWatermarkPercent: 'A re-layering step hands the oldest exchanges down until the prompt is under this share of the budget, in percent.',
      retrievalQuotaTokens: 'Tokens of archived content one turn may fetch back on request.',
    },
  },
  {
    title: 'Condensing',
    keys: {
      autoCondensePercent: 'Condense automatically when a prompt passes this share of (window - reserved output), in percent.',
      condenseMinSavingTokens: 'Condense Now first estimates what it would save; below this many prompt tokens it says so and makes no model call, in tokens (0 = always call).',
      condensePrompt: 'Replaces the built-in condensing instructions when set (characters of text; empty keeps the built-in one).',
    },
  },
  {
    title: 'Layers',
    keys: {
      narrativeMaxTokens: 'L0 narrative cap, in tokens.',
      workingMemoryMin: 'L1: exchanges always kept in full after a re-layering step, whatever the watermark says (count of exchanges).',
      workingMemoryMax: 'L1: a re-layering step is also taken when working memory holds more than this many exchanges (count of exchanges).',
      headerMaxTokens: 'L2: cap of one header line, in tokens.',
      maxHeaders: 'L2: most header lines sent (lines); older ones fold into ranges.',
      summaryMaxTokens: 'L3: cap of one summary, in tokens.',
      summaryCount: 'L3: how many exchanges just below working memory are sent as summaries (count of exchanges).',
      indexMaxTokens: 'L4: reference index cap, in tokens.',
      fileViewPercent: 'What the session was shown of recently used files stays visible, after it left working memory, up to this share of the prompt budget (percent).',
      fileViewHorizon: '...if they were read or changed within this many exchanges.',
    },
  },
  {
    title: 'Tool output',
    keys: {
      codeMaxLines: 'Most lines of a file read kept in working memory, head and tail (lines).',
      outputMaxLines: 'Most lines of command output kept in working memory, head and tail (lines).',
      outputMaskTokens: 'Mask older command output in one step once this many tokens of it pile up; 0 = never (tokens).',
      outputMaskKeepRecent: 'When masking, keep the outputs of this many latest exchanges (count of exchanges).',
    },
  },
];

/**
 * Which SQLite library holds the archive: `auto` (the extension host's own `node:sqlite` where its
 * Node has it, else better-sqlite3, else the plain-file store) or one named. Read at activation.
 */
export const ARCHIVE_DRIVER_SETTING = 'strata.archive.driver';

/** The `strata.*` setting name of an engine key. */
export function settingName(key: EngineKey): string {
  return `strata.${key}`;
}
