import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/engine/ports';
import { SettingsHandler, type SettingsAccess } from '../../src/extension/settingsHandler';
import { buildConfigurationContribution } from '../../src/extension/settingsManifest';
import { checkSettingWrite, fieldFor, settingsPanelGroups } from '../../src/extension/settingsPanelModel';
import { checkSettingValue, settingTitle, valueAtScope, type SettingField, type SettingScope, type SettingValue } from '../../src/shared/settingsFields';
import { parseHostToWebview, type HostToWebview } from '../../src/shared/webviewMessages';
import { initialSettingsState, settingsReducer, type SettingsAction, type SettingsState } from '../../webview-ui/src/settings/settingsState';

const percent: SettingField = { key: 'strata.autoCondensePercent', kind: 'integer', description: 'in percent', default: 80, minimum: 5, maximum: 100 };

function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

/** settings.json at two scopes, in memory: what VS Code's inspect/update do, without VS Code. */
function memorySettings(hasWorkspace = true): SettingsAccess & { user: Map<string, unknown>; workspace: Map<string, unknown>; writes: string[]; failWith?: Error } {
  const user = new Map<string, unknown>();
  const workspace = new Map<string, unknown>();
  const writes: string[] = [];
  const store = {
    user,
    workspace,
    writes,
    failWith: undefined as Error | undefined,
    inspect: (name: string) => ({ globalValue: user.get(name), workspaceValue: workspace.get(name) }),
    effective: (name: string) => workspace.get(name) ?? user.get(name),
    update: async (name: string, value: SettingValue | undefined, scope: SettingScope) => {
      if (store.failWith) throw store.failWith;
      writes.push(`${scope} ${name}=${JSON.stringify(value)}`);
      const map = scope === 'user' ? user : workspace;
      if (value === undefined) map.delete(name);
      else map.set(name, value);
    },
    writtenTo: (_name: string, scope: SettingScope) => `${scope} settings`,
    hasWorkspace: () => hasWorkspace,
  };
  return store;
}

function handlerWith(access: SettingsAccess) {
  const sent: HostToWebview[] = [];
  const logger = memoryLogger();
  return { sent, logger, handler: new SettingsHandler(access, (m) => sent.push(m), logger) };
}

describe('settings fields (shared by panel and host)', () => {
  it('refuse numbers out of range with the range in the message, and accept the edges', () => {
    expect(checkSettingValue(percent, '150')).toEqual({ ok: false, message: '150 is out of range: must be from 5 to 100.' });
    expect(checkSettingValue(percent, 4)).toMatchObject({ ok: false });
    expect(checkSettingValue(percent, '5')).toEqual({ ok: true, value: 5 });
    expect(checkSettingValue(percent, 100)).toEqual({ ok: true, value: 100 });
    expect(checkSettingValue(percent, '7.5')).toEqual({ ok: false, message: 'Must be a whole number from 5 to 100.' });
    expect(checkSettingValue(percent, '')).toMatchObject({ ok: false, message: 'Must be a number from 5 to 100.' });
    expect(checkSettingValue({ ...percent, kind: 'number' }, '7.5')).toEqual({ ok: true, value: 7.5 });
  });

  it('check text length, enum options and booleans', () => {
    const text: SettingField = { key: 'strata.condensePrompt', kind: 'string', description: '', default: '', maxLength: 3, multiline: true };
    expect(checkSettingValue(text, 'abc')).toEqual({ ok: true, value: 'abc' });
    expect(checkSettingValue(text, 'abcd')).toEqual({ ok: false, message: 'Too long: 4 characters, at most 3.' });
    const choice: SettingField = { key: 'strata.x', kind: 'enum', description: '', default: 'a', options: ['a', 'b'] };
    expect(checkSettingValue(choice, 'b')).toEqual({ ok: true, value: 'b' });
    expect(checkSettingValue(choice, 'c')).toMatchObject({ ok: false, message: 'Must be one of a, b.' });
    const flag: SettingField = { key: 'strata.autoApprove.writes', kind: 'boolean', description: '', default: false };
    expect(checkSettingValue(flag, 'true')).toMatchObject({ ok: false });
    expect(checkSettingValue(flag, true)).toEqual({ ok: true, value: true });
  });

  it('show the value set at the scope, else what that scope inherits, else the default', () => {
    expect(valueAtScope(percent, 'user')).toEqual({ value: 80, setHere: false });
    expect(valueAtScope({ ...percent, user: 70 }, 'workspace')).toEqual({ value: 70, setHere: false });
    expect(valueAtScope({ ...percent, user: 70 }, 'user')).toEqual({ value: 70, setHere: true });
    expect(valueAtScope({ ...percent, user: 70, workspace: 60 }, 'workspace')).toEqual({ value: 60, setHere: true });
    expect(valueAtScope({ ...percent, workspace: 60 }, 'user')).toEqual({ value: 80, setHere: false });
  });

  it('title keys as the Settings editor does', () => {
    expect(settingTitle('strata.autoCondensePercent')).toBe('Auto Condense Percent');
    expect(settingTitle('strata.autoApprove.writes')).toBe('Auto Approve: Writes');
  });
});

describe('settings panel model (from the manifest)', () => {
  const manifest = buildConfigurationContribution();

  it('has every property of package.json contributes.configuration, in its groups and order, with its range and default', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { configuration: Array<{ title: string; properties: Record<string, Record<string, unknown>> }> } };
    const groups = settingsPanelGroups(manifest, () => undefined, () => undefined);
    expect(groups.map((g) => g.title)).toEqual(pkg.contributes.configuration.map((g) => g.title));
    groups.forEach((group, i) => {
      const properties = pkg.contributes.configuration[i]!.properties;
      expect(group.fields.map((f) => f.key)).toEqual(Object.keys(properties));
      for (const field of group.fields) {
        const p = properties[field.key]!;
        expect(field.default).toEqual(p.default);
        expect(field.description).toBe(p.markdownDescription);
        if (field.kind === 'integer' || field.kind === 'number') expect([field.minimum, field.maximum]).toEqual([p.minimum, p.maximum]);
        if (field.kind === 'string') expect(field.multiline).toBe(p.editPresentation === 'multilineText');
        if (field.kind === 'enum') expect(field.options).toEqual(p.enum);
      }
    });
    const kinds = new Set(groups.flatMap((g) => g.fields.map((f) => f.kind)));
    expect([...kinds].sort()).toEqual(['boolean', 'enum', 'integer', 'string']);
  });

  it('carries the values per scope; a stored value of the wrong type is left out, an out-of-range number kept', () => {
    const values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }> = {
      'strata.autoCondensePercent': { globalValue: 70, workspaceValue: 150 },
      'strata.autoApprove.writes': { globalValue: 'yes' },
    };
    const groups = settingsPanelGroups(manifest, (name) => values[name], (name) => (name === 'strata.autoCondensePercent' ? 150 : undefined));
    const fields = new Map(groups.flatMap((g) => g.fields).map((f) => [f.key, f]));
    expect(fields.get('strata.autoCondensePercent')).toMatchObject({ user: 70, workspace: 150, effective: 150 });
    expect(fields.get('strata.autoApprove.writes')?.user).toBeUndefined();
    const snapshot = { type: 'settings/snapshot', groups, hasWorkspace: true };
    expect(parseHostToWebview(snapshot).ok).toBe(true);
  });

  it('maps an enum property to a select and refuses a type it cannot show', () => {
    expect(fieldFor('strata.mode', { type: 'string', enum: ['fast', 'careful'], default: 'careful' })).toMatchObject({ kind: 'enum', options: ['fast', 'careful'], default: 'careful' });
    expect(() => fieldFor('strata.list', { type: 'array' })).toThrow(/strata\.list has type array/);
    expect(() => fieldFor('strata.list', { type: 'array', enum: [['a']] })).toThrow(/strata\.list has type array/);
  });

  it('reads a property the way the Settings editor does: description fallbacks, open ranges, defaults of the wrong type', () => {
    expect(fieldFor('strata.a', { type: 'boolean', description: 'plain text', default: 'yes' })).toEqual({ key: 'strata.a', kind: 'boolean', description: 'plain text', default: false });
    expect(fieldFor('strata.b', { type: 'boolean', default: true })).toEqual({ key: 'strata.b', kind: 'boolean', description: '', default: true });
    expect(fieldFor('strata.c', { type: 'number', markdownDescription: 'md', description: 'plain' })).toEqual({
      key: 'strata.c',
      kind: 'number',
      description: 'md',
      default: 0,
      minimum: Number.MIN_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(fieldFor('strata.d', { type: 'integer', default: 3, minimum: 1, maximum: 9 })).toMatchObject({ kind: 'integer', default: 3, minimum: 1, maximum: 9 });
    expect(fieldFor('strata.e', { type: 'string', enum: ['x', 7, 'y'] })).toEqual({ key: 'strata.e', kind: 'enum', description: '', default: 'x', options: ['x', 'y'] });
    expect(fieldFor('strata.f', { type: 'string', enum: [] })).toMatchObject({ kind: 'enum', default: '', options: [] });
    expect(fieldFor('strata.g', { type: 'string', default: 5 })).toStrictEqual({ key: 'strata.g', kind: 'string', description: '', default: '', multiline: false });
    expect(fieldFor('strata.h', { type: 'string', default: 'v', maxLength: 10, editPresentation: 'multilineText' })).toEqual({
      key: 'strata.h',
      kind: 'string',
      description: '',
      default: 'v',
      maxLength: 10,
      multiline: true,
    });
  });

  it('leaves out a null stored value and a number stored as text', () => {
    const groups = settingsPanelGroups(
      manifest,
      (name) => (name === 'strata.maxHeaders' ? { globalValue: null, workspaceValue: '300' } : name === 'strata.condensePrompt' ? { globalValue: 'Be brief.' } : undefined),
      (name) => (name === 'strata.maxHeaders' ? '300' : undefined),
    );
    const fields = new Map(groups.flatMap((g) => g.fields).map((f) => [f.key, f]));
    const headers = fields.get('strata.maxHeaders')!;
    for (const scope of ['user', 'workspace', 'effective']) expect(headers).not.toHaveProperty(scope);
    expect(fields.get('strata.condensePrompt')).toMatchObject({ user: 'Be brief.' });
    expect(groups.map((g) => g.id)).toEqual(manifest.map((g) => g.id));
  });

  it('a fractional-number setting keeps any number it holds, in range or not, and no text', () => {
    const custom = [{ id: 'g', title: 'Strata: G', order: 1, properties: { 'strata.ratio': { type: 'number', default: 0.5, minimum: 0, maximum: 1 } } }];
    const [group] = settingsPanelGroups(custom, () => ({ globalValue: 1.5, workspaceValue: '0.25' }), () => 1.5);
    expect(group!.fields[0]).toStrictEqual({ key: 'strata.ratio', kind: 'number', description: '', default: 0.5, minimum: 0, maximum: 1, user: 1.5, effective: 1.5 });
  });

  it('checks writes against the manifest: unknown keys and out-of-range values are refused', () => {
    expect(checkSettingWrite(manifest, 'strata.autoCondensePercent', 70)).toEqual({ ok: true, value: 70 });
    expect(checkSettingWrite(manifest, 'strata.autoCondensePercent', 150)).toMatchObject({ ok: false, message: expect.stringContaining('5 to 100') });
    expect(checkSettingWrite(manifest, 'editor.fontSize', 12)).toEqual({ ok: false, message: 'editor.fontSize is not a Strata setting.' });
  });
});

describe('SettingsHandler (host side of the panel)', () => {
  it('answers settings/get with a snapshot echoing the request id', async () => {
    const access = memorySettings();
    access.user.set('strata.maxHeaders', 300);
    const { sent, handler } = handlerWith(access);
    await handler.handle({ type: 'settings/get', requestId: 'g1' });
    expect(sent).toHaveLength(1);
    const snapshot = sent[0]!;
    if (snapshot.type !== 'settings/snapshot') throw new Error(snapshot.type);
    expect(snapshot.requestId).toBe('g1');
    expect(snapshot.groups.flatMap((g) => g.fields).find((f) => f.key === 'strata.maxHeaders')?.user).toBe(300);
  });

  it('writes a valid value at the chosen scope and removes it on reset', async () => {
    const access = memorySettings();
    const { sent, handler } = handlerWith(access);
    await handler.handle({ type: 'settings/update', requestId: 'u1', key: 'strata.autoCondensePercent', scope: 'workspace', value: 70 });
    await handler.handle({ type: 'settings/update', requestId: 'u2', key: 'strata.autoApprove.writes', scope: 'user', value: true });
    expect(access.writes).toEqual(['workspace strata.autoCondensePercent=70', 'user strata.autoApprove.writes=true']);
    expect(sent).toEqual([
      { type: 'settings/updated', requestId: 'u1', key: 'strata.autoCondensePercent', ok: true },
      { type: 'settings/updated', requestId: 'u2', key: 'strata.autoApprove.writes', ok: true },
    ]);
    await handler.handle({ type: 'settings/update', requestId: 'u3', key: 'strata.autoCondensePercent', scope: 'workspace', value: null });
    expect(access.workspace.has('strata.autoCondensePercent')).toBe(false);
    expect(access.writes.at(-1)).toBe('workspace strata.autoCondensePercent=undefined');
  });

  it('refuses out-of-range values, unknown keys and workspace writes without a folder, writing nothing', async () => {
    const access = memorySettings(false);
    const { sent, handler, logger } = handlerWith(access);
    await handler.handle({ type: 'settings/update', requestId: 'a', key: 'strata.autoCondensePercent', scope: 'user', value: 150 });
    await handler.handle({ type: 'settings/update', requestId: 'b', key: 'editor.fontSize', scope: 'user', value: null });
    await handler.handle({ type: 'settings/update', requestId: 'c', key: 'strata.autoCondensePercent', scope: 'workspace', value: 70 });
    expect(access.writes).toEqual([]);
    expect(sent.map((m) => (m.type === 'settings/updated' ? [m.requestId, m.ok, m.message] : m.type))).toEqual([
      ['a', false, '150 is out of range: must be from 5 to 100.'],
      ['b', false, 'editor.fontSize is not a Strata setting.'],
      ['c', false, 'No folder is open, so there are no workspace settings; choose User, or open a folder.'],
    ]);
    expect(logger.lines.some((l) => l.startsWith('warn settings panel: refused strata.autoCondensePercent = 150'))).toBe(true);
  });

  it('writes at User scope with no folder open, and logs each write and reset with the file it went to', async () => {
    const access = memorySettings(false);
    const { sent, handler, logger } = handlerWith(access);
    await handler.handle({ type: 'settings/update', requestId: 'u1', key: 'strata.maxHeaders', scope: 'user', value: 300 });
    await handler.handle({ type: 'settings/update', requestId: 'u2', key: 'strata.maxHeaders', scope: 'user', value: null });
    expect(sent).toEqual([
      { type: 'settings/updated', requestId: 'u1', key: 'strata.maxHeaders', ok: true },
      { type: 'settings/updated', requestId: 'u2', key: 'strata.maxHeaders', ok: true },
    ]);
    expect(sent[0]).toStrictEqual({ type: 'settings/updated', requestId: 'u1', key: 'strata.maxHeaders', ok: true });
    expect(logger.lines).toEqual(['info settings panel: strata.maxHeaders = 300 in user settings', 'info settings panel: strata.maxHeaders reset in user settings']);
    const prompt = 'Keep every file path. '.repeat(5);
    await handler.handle({ type: 'settings/update', requestId: 'u3', key: 'strata.condensePrompt', scope: 'user', value: prompt });
    await handler.handle({ type: 'settings/update', requestId: 'u4', key: 'strata.contextPreset', scope: 'user', value: prompt });
    expect(logger.lines.slice(2)).toEqual([
      `info settings panel: strata.condensePrompt = ${JSON.stringify(prompt).slice(0, 80)} in user settings`,
      `warn settings panel: refused strata.contextPreset = ${JSON.stringify(prompt).slice(0, 80)}: Must be one of economy, balanced, full-recall.`,
    ]);
  });

  it('logs a refused value and a failed write with the reason', async () => {
    const access = memorySettings();
    const { sent, handler, logger } = handlerWith(access);
    await handler.handle({ type: 'settings/update', requestId: 'a', key: 'strata.maxHeaders', scope: 'user', value: 'many' });
    access.failWith = new Error('file locked');
    await handler.handle({ type: 'settings/update', requestId: 'b', key: 'strata.maxHeaders', scope: 'workspace', value: 300 });
    expect(logger.lines).toEqual(['warn settings panel: refused strata.maxHeaders = "many": Must be a number from 10 to 2,000.', 'error settings panel: writing strata.maxHeaders: file locked']);
    expect(sent).toEqual([
      { type: 'settings/updated', requestId: 'a', key: 'strata.maxHeaders', ok: false, message: 'Must be a number from 10 to 2,000.' },
      {
        type: 'settings/updated',
        requestId: 'b',
        key: 'strata.maxHeaders',
        ok: false,
        message: 'VS Code could not write strata.maxHeaders to the workspace settings (file locked). Fix settings.json if it has a syntax error, or use the Settings editor.',
      },
    ]);
  });

  it('says what to do when VS Code cannot write the file', async () => {
    const access = memorySettings();
    access.failWith = new Error('Unable to write into user settings. Please open the user settings to correct errors/warnings in it and try again.');
    const { sent, handler } = handlerWith(access);
    await handler.handle({ type: 'settings/update', requestId: 'x', key: 'strata.maxHeaders', scope: 'user', value: 300 });
    expect(sent[0]).toMatchObject({ type: 'settings/updated', ok: false, message: expect.stringMatching(/could not write strata\.maxHeaders to the user settings \(Unable to write.*\)\. Fix settings\.json/) });
  });

  it('pushes an unasked snapshot after an outside change', () => {
    const access = memorySettings();
    const { sent, handler } = handlerWith(access);
    access.workspace.set('strata.autoCondensePercent', 60);
    handler.pushSnapshot();
    const m = sent[0]!;
    if (m.type !== 'settings/snapshot') throw new Error(m.type);
    expect(m).not.toHaveProperty('requestId');
    expect(m.groups.flatMap((g) => g.fields).find((f) => f.key === 'strata.autoCondensePercent')).toMatchObject({ workspace: 60, effective: 60 });
  });
});

describe('settingsReducer (webview panel state)', () => {
  const run = (...actions: SettingsAction[]): SettingsState => actions.reduce(settingsReducer, initialSettingsState);

  it('opens on settings/show, notes a write in flight and clears it when the host confirms', () => {
    const s = run({ type: 'settings/show' }, { type: 'local/settingSent', requestId: 'u1', key: 'strata.maxHeaders' });
    expect(s.open).toBe(true);
    expect(s.notes['strata.maxHeaders']).toEqual({ kind: 'saving' });
    const done = settingsReducer(s, { type: 'settings/updated', requestId: 'u1', key: 'strata.maxHeaders', ok: true });
    expect(done.notes).toEqual({});
    expect(done.inFlight).toEqual({});
  });

  it('shows a refusal from the host or the panel, and ignores answers to requests it did not send', () => {
    const s = run({ type: 'local/settingSent', requestId: 'u1', key: 'k' }, { type: 'settings/updated', requestId: 'u1', key: 'k', ok: false, message: 'no' });
    expect(s.notes.k).toEqual({ kind: 'error', message: 'no' });
    expect(settingsReducer(s, { type: 'settings/updated', requestId: 'zz', key: 'k', ok: true })).toBe(s);
    expect(settingsReducer(s, { type: 'local/settingEdited', key: 'k' }).notes).toEqual({});
    expect(run({ type: 'local/settingRefused', key: 'k', message: 'range' }).notes.k).toEqual({ kind: 'error', message: 'range' });
  });

  it('falls back to User when a snapshot says no folder is open', () => {
    const s = run({ type: 'local/scope', scope: 'workspace' }, { type: 'settings/snapshot', groups: [], hasWorkspace: false });
    expect(s.scope).toBe('user');
    expect(run({ type: 'local/scope', scope: 'workspace' }, { type: 'settings/snapshot', groups: [], hasWorkspace: true }).scope).toBe('workspace');
  });
});
