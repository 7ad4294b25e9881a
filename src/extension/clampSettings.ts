import { resolveEngineSettings, type EngineSettings } from '../shared/engineSettings';
import { modelSettingsSchema, type ModelSettings } from '../shared/webviewMessages';
import { SQLITE_DRIVER_CHOICES, type SqliteDriverChoice } from '../adapters/sqliteDrivers';
import { ARCHIVE_DRIVER_SETTING, engineSettingSpecs, settingName, type SettingSpec } from './settingsSpec';

/** Reads one raw setting value (what `WorkspaceConfiguration.get` returns; `undefined` when unset). */
export type RawSettingReader = (name: string) => unknown;

/** Settings that can be used, and one warning per value that had to be changed to get there. */
export interface ClampedSettings {
  engine: EngineSettings;
  model: ModelSettings;
  /** `strata.archive.driver`. */
  archiveDriver: SqliteDriverChoice;
  warnings: string[];
}

/**
 * Turns raw `strata.*` values into valid settings: out-of-range numbers are clamped to the
 * range, fractions rounded, wrong types replaced by the default, each with a warning that
 * names the setting. Never throws on user input: a bad value must not stop the extension.
 */
export function clampSettings(read: RawSettingReader): ClampedSettings {
  const warnings: string[] = [];
  const engine: Record<string, unknown> = {};
  for (const spec of engineSettingSpecs()) {
    const value = clampOne(spec, read(settingName(spec.key)), warnings);
    if (value !== undefined) engine[spec.key] = value;
  }
  if (typeof engine.workingMemoryMax === 'number' && typeof engine.workingMemoryMin === 'number' && engine.workingMemoryMax < engine.workingMemoryMin) {
    warnings.push(
      `strata.workingMemoryMax (${engine.workingMemoryMax}) is below strata.workingMemoryMin (${engine.workingMemoryMin}); using ${engine.workingMemoryMin} for both. Raise the maximum or lower the minimum.`,
    );
    engine.workingMemoryMax = engine.workingMemoryMin;
  }
  return { engine: resolveEngineSettings(engine), model: readModelSettings(read, warnings), archiveDriver: readArchiveDriver(read, warnings), warnings };
}

function clampOne(spec: SettingSpec, raw: unknown, warnings: string[]): unknown {
  const name = settingName(spec.key);
  if (raw === undefined || raw === null) return spec.default;
  if (spec.kind === 'enum') {
    if (typeof raw === 'string' && spec.options.includes(raw)) return raw;
    warnings.push(`${name} is one of ${spec.options.join(', ')} (got ${JSON.stringify(raw).slice(0, 80)}); using ${spec.default}.`);
    return spec.default;
  }
  if (spec.kind === 'string') {
    if (typeof raw !== 'string') {
      warnings.push(`${name} must be text; using the default.`);
      return spec.default;
    }
    if (raw.length > spec.maxLength) {
      warnings.push(`${name} is ${raw.length} characters, more than the ${spec.maxLength} allowed; only the first ${spec.maxLength} are used.`);
      return raw.slice(0, spec.maxLength);
    }
    return raw === '' ? undefined : raw;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    warnings.push(`${name} must be a number; using the default ${spec.default}.`);
    return spec.default;
  }
  let value = spec.kind === 'integer' ? Math.round(raw) : raw;
  if (value !== raw) warnings.push(`${name} must be a whole number; using ${value} instead of ${raw}.`);
  if (value < spec.minimum || value > spec.maximum) {
    const clamped = Math.min(spec.maximum, Math.max(spec.minimum, value));
    warnings.push(`${name} = ${value} is outside ${spec.minimum}..${spec.maximum}; using ${clamped}.`);
    value = clamped;
  }
  return value;
}

function readArchiveDriver(read: RawSettingReader, warnings: string[]): SqliteDriverChoice {
  const raw = read(ARCHIVE_DRIVER_SETTING);
  const choice = SQLITE_DRIVER_CHOICES.find((c) => c === raw);
  if (choice) return choice;
  if (raw !== undefined && raw !== null) warnings.push(`${ARCHIVE_DRIVER_SETTING} is one of ${SQLITE_DRIVER_CHOICES.join(', ')} (got ${JSON.stringify(raw).slice(0, 80)}); using auto.`);
  return 'auto';
}

/** `strata.model`, `strata.condenseModel`, `strata.baseUrl`, `strata.autoApprove.*`: a bad value falls back to its default. */
function readModelSettings(read: RawSettingReader, warnings: string[]): ModelSettings {
  const names: Record<keyof ModelSettings, string> = {
    model: 'strata.model',
    condenseModel: 'strata.condenseModel',
    baseUrl: 'strata.baseUrl',
    autoApproveWrites: 'strata.autoApprove.writes',
    autoApproveCommands: 'strata.autoApprove.commands',
    redactSecrets: 'strata.redactSecrets',
  };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(names) as Array<keyof ModelSettings>) {
    const raw = read(names[key]);
    const field = modelSettingsSchema.shape[key];
    if (raw === undefined || raw === null || field.safeParse(raw).success) {
      if (raw !== undefined && raw !== null) out[key] = raw;
      continue;
    }
    warnings.push(`${names[key]} has an invalid value (${JSON.stringify(raw).slice(0, 80)}); using the default.`);
  }
  return modelSettingsSchema.parse(out);
}
