import { modelSettingsSchema } from '../shared/webviewMessages';
import { ENGINE_SETTING_GROUPS, engineSettingSpecs, settingName, type EngineKey, type SettingSpec } from './settingsSpec';

/** One `contributes.configuration` entry: a titled group of settings in VS Code's Settings editor. */
export interface ConfigurationGroup {
  id: string;
  title: string;
  order: number;
  properties: Record<string, Record<string, unknown>>;
}

/**
 * The manifest's `contributes.configuration`, generated from `engineSettingsSchema` (defaults,
 * ranges, types) and the unit-bearing descriptions in settingsSpec.ts. `npm run manifest`
 * writes it into package.json; test/unit/settingsManifest.test.ts fails if the two differ.
 */
export function buildConfigurationContribution(): ConfigurationGroup[] {
  const specs = new Map(engineSettingSpecs().map((s) => [s.key, s]));
  const placed = new Set<EngineKey>();
  const groups: ConfigurationGroup[] = [modelGroup()];
  ENGINE_SETTING_GROUPS.forEach((group, index) => {
    const properties: ConfigurationGroup['properties'] = {};
    for (const [key, description] of Object.entries(group.keys) as Array<[EngineKey, string]>) {
      const spec = specs.get(key);
      if (!spec) throw new Error(`settingsSpec.ts describes ${key}, which engineSettingsSchema does not have.`);
      properties[settingName(key)] = propertyFor(spec, description);
      placed.add(key);
    }
    groups.push({ id: `strata.${slug(group.title)}`, title: `Strata: ${group.title}`, order: index + 2, properties });
  });
  const unplaced = [...specs.keys()].filter((k) => !placed.has(k));
  if (unplaced.length > 0) throw new Error(`engineSettingsSchema keys with no group or description in settingsSpec.ts: ${unplaced.join(', ')}`);
  return groups;
}

function propertyFor(spec: SettingSpec, description: string): Record<string, unknown> {
  if (spec.kind === 'string') {
    return { type: 'string', default: spec.default ?? '', maxLength: spec.maxLength, editPresentation: 'multilineText', scope: 'resource', markdownDescription: description };
  }
  return { type: spec.kind, default: spec.default, minimum: spec.minimum, maximum: spec.maximum, scope: 'resource', markdownDescription: description };
}

function modelGroup(): ConfigurationGroup {
  const d = modelSettingsSchema.parse({});
  return {
    id: 'strata.model',
    title: 'Strata: Model',
    order: 1,
    properties: {
      'strata.model': { type: 'string', default: d.model, scope: 'resource', markdownDescription: 'Anthropic model id for chat answers (its context window is `strata.contextWindow`). The API key is not a setting: run **Strata: Set API Key**.' },
      'strata.condenseModel': { type: 'string', default: d.condenseModel, scope: 'resource', markdownDescription: 'Model id for condensing calls; empty uses `strata.model`.' },
      // Not machine-overridable: in a remote window VS Code would write a User-scope value to the machine's settings.
      'strata.baseUrl': { type: 'string', default: d.baseUrl, scope: 'resource', markdownDescription: "Messages API base URL; empty uses Anthropic's." },
      'strata.autoApprove.writes': { type: 'boolean', default: d.autoApproveWrites, scope: 'resource', markdownDescription: 'Apply file edits without asking first.' },
      'strata.autoApprove.commands': { type: 'boolean', default: d.autoApproveCommands, scope: 'resource', markdownDescription: 'Run shell commands without asking first.' },
    },
  };
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
