import { checkSettingValue, type Checked, type SettingField, type SettingGroup } from '../shared/settingsFields';
import type { ConfigurationGroup } from './settingsManifest';

/** What `WorkspaceConfiguration.inspect(name)` says of one setting (the parts the panel shows). */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
}

/**
 * The settings panel's groups: one per manifest group, one field per property, in manifest
 * order, with the values `inspect` reports at user and workspace scope and the `effective`
 * value. A stored value of the wrong type is left out (the host clamps and warns about it
 * elsewhere). Pure: no `vscode`.
 */
export function settingsPanelGroups(manifest: readonly ConfigurationGroup[], inspect: (name: string) => InspectedSetting | undefined, effective: (name: string) => unknown): SettingGroup[] {
  return manifest.map((group) => ({
    id: group.id,
    title: group.title,
    fields: Object.entries(group.properties).map(([key, property]) => {
      const field = fieldFor(key, property);
      const seen = inspect(key);
      const user = storable(field, seen?.globalValue);
      const workspace = storable(field, seen?.workspaceValue);
      const now = storable(field, effective(key));
      return { ...field, ...(user !== undefined && { user }), ...(workspace !== undefined && { workspace }), ...(now !== undefined && { effective: now }) };
    }),
  }));
}

/** The field a manifest property describes: its type decides the control (checkbox, number, select, text). */
export function fieldFor(key: string, property: Record<string, unknown>): SettingField {
  const description = typeof property.markdownDescription === 'string' ? property.markdownDescription : typeof property.description === 'string' ? property.description : '';
  const type = property.type;
  if (type === 'boolean') return { key, kind: 'boolean', description, default: property.default === true };
  if (type === 'integer' || type === 'number') {
    const num = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);
    return { key, kind: type, description, default: num(property.default, 0), minimum: num(property.minimum, Number.MIN_SAFE_INTEGER), maximum: num(property.maximum, Number.MAX_SAFE_INTEGER) };
  }
  if (type === 'string' && Array.isArray(property.enum)) {
    const options = property.enum.filter((o): o is string => typeof o === 'string');
    return { key, kind: 'enum', description, default: typeof property.default === 'string' ? property.default : (options[0] ?? ''), options };
  }
  if (type === 'string') {
    return {
      key,
      kind: 'string',
      description,
      default: typeof property.default === 'string' ? property.default : '',
      ...(typeof property.maxLength === 'number' && { maxLength: property.maxLength }),
      multiline: property.editPresentation === 'multilineText',
    };
  }
  throw new Error(`Setting ${key} has type ${String(type)}, which the settings panel does not show yet; add a control for it in settingsPanelModel.ts.`);
}

/** Checks a write asked by the webview: the key must be a Strata setting, the value its type and in range. */
export function checkSettingWrite(manifest: readonly ConfigurationGroup[], key: string, value: unknown): Checked {
  for (const group of manifest) {
    const property = group.properties[key];
    if (property) return checkSettingValue(fieldFor(key, property), value);
  }
  return { ok: false, message: `${key} is not a Strata setting.` };
}

function storable(field: SettingField, value: unknown): SettingField['default'] | undefined {
  if (value === undefined || value === null) return undefined;
  // Out-of-range numbers stay visible (the panel shows them with the range); wrong types do not.
  if (field.kind === 'integer' || field.kind === 'number') return typeof value === 'number' ? value : undefined;
  const checked = checkSettingValue(field, value);
  return checked.ok ? checked.value : undefined;
}
