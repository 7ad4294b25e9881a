import { modelSettingsSchema } from '../shared/webviewMessages';
import { SQLITE_DRIVER_CHOICES } from '../adapters/sqliteDrivers';
import { ARCHIVE_DRIVER_SETTING, ENGINE_SETTING_GROUPS, engineSettingSpecs, settingName, type EngineKey, type SettingSpec } from './settingsSpec';

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
  groups.push(archiveGroup(groups.length + 1));
  const unplaced = [...specs.keys()].filter((k) => !placed.has(k));
  if (unplaced.length > 0) throw new Error(`engineSettingsSchema keys with no group or description in settingsSpec.ts: ${unplaced.join(', ')}`);
  return groups;
}

function propertyFor(spec: SettingSpec, description: string): Record<string, unknown> {
  if (spec.kind === 'enum') return { type: 'string', enum: [...spec.options], default: spec.default, scope: 'resource', markdownDescription: description };
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
      'strata.redactSecrets': {
        type: 'boolean',
        default: d.redactSecrets,
        scope: 'resource',
        markdownDescription:
          'Replace secrets in tool output, mentions and the terminal tail before the model, the archive or the chat see them: AWS, GitHub and Anthropic keys, private-key blocks, `*_SECRET`/`*_TOKEN`/`PASSWORD` values. Off lets the model see them. Your API key is redacted either way. Applies from the next message.',
      },
    },
  };
}

function archiveGroup(order: number): ConfigurationGroup {
  return {
    id: 'strata.archive',
    title: 'Strata: Archive',
    order,
    properties: {
      [ARCHIVE_DRIVER_SETTING]: {
        type: 'string',
        enum: [...SQLITE_DRIVER_CHOICES],
        enumDescriptions: [
          "The editor's own SQLite (node:sqlite, VS Code on Node 22.13+), else better-sqlite3, else a plain file.",
          "Node's built-in SQLite; needs an editor on Node 22.13 or later.",
          'The better-sqlite3 native module, where one built for the editor\'s Node is installed (a development checkout; the .vsix ships none).',
        ],
        default: 'auto',
        // Not machine-scoped: User scope must mean the user's settings in a remote window too (settingsTarget.ts).
        scope: 'window',
        markdownDescription: 'Which SQLite library holds the archive (the same file either way). Applies when the window reloads. A driver that does not load here is reported and `auto` is used.',
      },
    },
  };
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
