import { z } from 'zod';

/**
 * One `strata.*` setting as the webview's settings panel shows it: built by the host from the
 * manifest's `contributes.configuration` (the same titles, descriptions, ranges and defaults
 * the Settings editor shows), with the values set at each scope.
 */
const settingValue = z.union([z.boolean(), z.number(), z.string()]);
export type SettingValue = z.infer<typeof settingValue>;

const common = {
  /** Full setting name, such as `strata.autoCondensePercent`. */
  key: z.string().regex(/^strata\.[A-Za-z0-9.]+$/),
  /** Markdown as in the manifest (`code` and **bold** only); states the unit. */
  description: z.string().max(2_000),
  /** Value in user settings, `undefined` when not set there. */
  user: settingValue.optional(),
  /** Value in workspace settings, `undefined` when not set there (or no workspace is open). */
  workspace: settingValue.optional(),
  /** What the extension reads now (all scopes merged, before clamping). */
  effective: settingValue.optional(),
};

export const settingFieldSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('boolean'), default: z.boolean() }),
  z.object({ ...common, kind: z.enum(['integer', 'number']), default: z.number(), minimum: z.number(), maximum: z.number() }),
  z.object({ ...common, kind: z.literal('string'), default: z.string(), maxLength: z.number().int().positive().optional(), multiline: z.boolean() }),
  z.object({ ...common, kind: z.literal('enum'), default: z.string(), options: z.array(z.string()).min(1) }),
]);
export type SettingField = z.infer<typeof settingFieldSchema>;

/** A titled group, as in the Settings editor ("Strata: Condensing"). */
export const settingGroupSchema = z.object({ id: z.string(), title: z.string(), fields: z.array(settingFieldSchema) });
export type SettingGroup = z.infer<typeof settingGroupSchema>;

/** Where a value is written: `ConfigurationTarget.Global` (synced by Settings Sync) or `.Workspace`. */
export const settingScopeSchema = z.enum(['user', 'workspace']);
export type SettingScope = z.infer<typeof settingScopeSchema>;

export { settingValue as settingValueSchema };

/** A value the panel may write, or why not (a message that shows the allowed range). */
export type Checked = { ok: true; value: SettingValue } | { ok: false; message: string };

/**
 * Checks `value` against the field's type and range. Used by the panel (refuses before sending)
 * and by the host (refuses again before `update`): neither side writes a value the other refuses.
 */
export function checkSettingValue(field: SettingField, value: unknown): Checked {
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: 'Must be on or off.' };
    case 'integer':
    case 'number': {
      const n = typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value)) : value;
      const range = `${field.minimum.toLocaleString('en-US')} to ${field.maximum.toLocaleString('en-US')}`;
      if (typeof n !== 'number' || !Number.isFinite(n)) return { ok: false, message: `Must be a number from ${range}.` };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { ok: false, message: `Must be a whole number from ${range}.` };
      if (n < field.minimum || n > field.maximum) return { ok: false, message: `${n} is out of range: must be from ${range}.` };
      return { ok: true, value: n };
    }
    case 'string':
      if (typeof value !== 'string') return { ok: false, message: 'Must be text.' };
      if (field.maxLength !== undefined && value.length > field.maxLength) return { ok: false, message: `Too long: ${value.length} characters, at most ${field.maxLength}.` };
      return { ok: true, value };
    case 'enum':
      return typeof value === 'string' && field.options.includes(value) ? { ok: true, value } : { ok: false, message: `Must be one of ${field.options.join(', ')}.` };
  }
}

/** The value shown at `scope`: set there, else what applies there (workspace inherits user), else the default. */
export function valueAtScope(field: SettingField, scope: SettingScope): { value: SettingValue; setHere: boolean } {
  const here = scope === 'user' ? field.user : field.workspace;
  if (here !== undefined) return { value: here, setHere: true };
  const inherited = scope === 'workspace' ? field.user : undefined;
  return { value: inherited ?? field.default, setHere: false };
}

/** The title VS Code's Settings editor gives a key: `strata.autoApprove.writes` -> "Auto Approve: Writes". */
export function settingTitle(key: string): string {
  const words = (part: string) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
  return key.replace(/^strata\./, '').split('.').map(words).join(': ');
}
