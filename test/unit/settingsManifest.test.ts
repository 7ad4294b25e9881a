import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineSettingsSchema } from '../../src/shared/engineSettings';
import { modelSettingsSchema } from '../../src/shared/webviewMessages';
import { COMMAND_IDS } from '../../src/extension/commandIds';
import { buildConfigurationContribution } from '../../src/extension/settingsManifest';
import { ARCHIVE_DRIVER_SETTING } from '../../src/extension/settingsSpec';
import { renderSettingsTable, SETTINGS_TABLE_END, SETTINGS_TABLE_START, withSettingsTable } from '../../src/extension/settingsTable';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: { configuration: Array<{ title: string; properties: Record<string, Record<string, unknown>> }>; commands: Array<{ command: string }>; views: Record<string, Array<{ id: string }>> };
};
const manifest = Object.assign({}, ...pkg.contributes.configuration.map((g) => g.properties)) as Record<string, Record<string, unknown>>;

describe('package.json contributes.configuration agrees with engineSettingsSchema', () => {
  it('is exactly what `npm run manifest` generates (run it after changing the schema)', () => {
    expect(pkg.contributes.configuration).toEqual(buildConfigurationContribution());
  });

  it("docs/settings.md's settings table is what `npm run manifest` writes: every setting with its default and range", () => {
    const page = readFileSync(join(__dirname, '..', '..', 'docs', 'settings.md'), 'utf8');
    expect(withSettingsTable(page, renderSettingsTable(buildConfigurationContribution()))).toBe(page);
    const table = page.slice(page.indexOf(SETTINGS_TABLE_START), page.indexOf(SETTINGS_TABLE_END));
    for (const key of Object.keys(manifest)) expect(table, key).toContain(`| \`${key}\` |`);
    expect(table).toContain('| `strata.promptBudgetPercent` | `80` | 1..100 |');
  });

  it('declares every engine setting, key by key, with the schema default, range and type', () => {
    const defaults = engineSettingsSchema.parse({});
    for (const [key, field] of Object.entries(engineSettingsSchema.shape)) {
      const entry = manifest[`strata.${key}`];
      expect(entry, `strata.${key} missing from the manifest`).toBeDefined();
      // The schema itself decides: a value at the manifest's bounds parses, one past them does not.
      if (entry!.type === 'integer') {
        const min = entry!.minimum as number;
        const max = entry!.maximum as number;
        expect(entry!.default, key).toBe(defaults[key as keyof typeof defaults]);
        expect(field.safeParse(min).success, `${key} minimum ${min}`).toBe(true);
        expect(field.safeParse(min - 1).success, `${key} below minimum`).toBe(false);
        expect(field.safeParse(max).success, `${key} maximum ${max}`).toBe(true);
        expect(field.safeParse(max + 1).success, `${key} above maximum`).toBe(false);
        expect(field.safeParse(min + 0.5).success, `${key} accepts fractions but the manifest says integer`).toBe(false);
      } else if (Array.isArray(entry!.enum)) {
        // a choice: every listed name parses, nothing else does
        expect(entry!.type, key).toBe('string');
        expect(entry!.default, key).toBe(defaults[key as keyof typeof defaults]);
        for (const option of entry!.enum as string[]) expect(field.safeParse(option).success, `${key} ${option}`).toBe(true);
        expect(field.safeParse('not-a-choice').success, `${key} accepts a name the manifest does not list`).toBe(false);
      } else {
        expect(entry!.type, key).toBe('string');
        const maxLength = entry!.maxLength as number;
        expect(field.safeParse('x'.repeat(maxLength)).success).toBe(true);
        expect(field.safeParse('x'.repeat(maxLength + 1)).success).toBe(false);
      }
    }
  });

  it('states a unit in every engine setting description and puts each in a titled group', () => {
    for (const key of Object.keys(engineSettingsSchema.shape)) {
      const entry = manifest[`strata.${key}`]!;
      // a choice has no unit: its description says what each name does instead
      if (Array.isArray(entry.enum)) for (const option of entry.enum as string[]) expect(String(entry.markdownDescription), key).toContain(`\`${option}\``);
      else expect(String(entry.markdownDescription), key).toMatch(/tokens|percent|lines|exchanges|characters/i);
    }
    for (const group of pkg.contributes.configuration) expect(group.title).toMatch(/^Strata: \w/);
  });

  it('declares no strata.* setting the extension does not read', () => {
    const known = new Set([...Object.keys(engineSettingsSchema.shape).map((k) => `strata.${k}`), 'strata.model', 'strata.condenseModel', 'strata.baseUrl', 'strata.autoApprove.writes', 'strata.autoApprove.commands', 'strata.redactSecrets', ARCHIVE_DRIVER_SETTING]);
    expect(Object.keys(manifest).filter((k) => !known.has(k))).toEqual([]);
    expect(manifest['strata.model']!.default).toBe(modelSettingsSchema.parse({}).model);
  });

  it('has no API key setting (the key lives in SecretStorage only): no setting named like a secret could hold one', () => {
    // A switch (strata.redactSecrets) cannot hold a key; any other type could.
    expect(Object.keys(manifest).filter((k) => /apiKey|key$|secret|password/i.test(k) && manifest[k]!.type !== 'boolean')).toEqual([]);
  });
});

describe('package.json commands and views', () => {
  it('contributes exactly the commands extension.ts registers', () => {
    expect(pkg.contributes.commands.map((c) => c.command).sort()).toEqual([...COMMAND_IDS].sort());
  });

  it('targets VS Code 1.100 (code-server 4.100.3) with typings that cannot promise newer API', () => {
    expect(pkg.engines.vscode).toBe('^1.100.0');
    expect(pkg.devDependencies['@types/vscode']).toBe('1.100.0');
  });

  it('has the chat webview and the archive tree in the Strata container', () => {
    expect(pkg.contributes.views.strata!.map((v) => v.id)).toEqual(['strata.chat', 'strata.archive']);
  });
});

describe("docs/settings.md's table, for any group", () => {
  it('shows each kind of default and range, and keeps every row on one line with its pipes escaped', () => {
    const table = renderSettingsTable([
      {
        id: 'strata.x',
        title: 'Strata: Odd ones',
        order: 1,
        properties: {
          'strata.empty': { type: 'string', default: '', markdownDescription: 'Text, empty\n  by default | or set.' },
          'strata.unset': { type: 'string', maxLength: 9 },
          'strata.piped': { type: 'string', default: 'a|b' },
          'strata.choice': { type: 'string', default: 'x', enum: ['x', 'y'] },
          'strata.flag': { type: 'boolean', default: false, minimum: 1 },
          'strata.capped': { type: 'integer', default: 1, maximum: 5 },
        },
      },
      { id: 'other', title: 'Other: Strata: extras', order: 2, properties: {} },
    ]);
    expect(table.split('\n')).toEqual([
      '| setting | default | range | what it does |',
      '|---|---|---|---|',
      '| **Odd ones** | | | |',
      '| `strata.empty` | (empty) |  | Text, empty by default \\| or set. |',
      '| `strata.unset` |  | <= 9 characters |  |',
      '| `strata.piped` | `a\\|b` |  |  |',
      '| `strata.choice` | `x` | x, y |  |',
      '| `strata.flag` | `false` |  |  |',
      '| `strata.capped` | `1` |  |  |',
      '| **Other: Strata: extras** | | | |',
    ]);
  });

  it('replaces only what is between the markers, and refuses a page without them', () => {
    const page = `intro\n${SETTINGS_TABLE_START}\nold table\n${SETTINGS_TABLE_END}\noutro\n`;
    expect(withSettingsTable(page, 'new table')).toBe(`intro\n${SETTINGS_TABLE_START}\nnew table\n${SETTINGS_TABLE_END}\noutro\n`);
    expect(withSettingsTable(`${SETTINGS_TABLE_START}\nold\n${SETTINGS_TABLE_END}`, 'new')).toBe(`${SETTINGS_TABLE_START}\nnew\n${SETTINGS_TABLE_END}`);
    expect(() => withSettingsTable('no markers', 't')).toThrow('docs/settings.md has no settings table markers');
    expect(() => withSettingsTable(`${SETTINGS_TABLE_START}\nx`, 't')).toThrow(/no settings table markers/);
    expect(() => withSettingsTable(`${SETTINGS_TABLE_END}\n${SETTINGS_TABLE_START}`, 't')).toThrow(/no settings table markers/);
  });
});
