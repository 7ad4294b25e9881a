import { describe, expect, it } from 'vitest';
import { engineSettingsSchema } from '../../src/shared/engineSettings';
import { clampSettings } from '../../src/extension/clampSettings';

const reader = (values: Record<string, unknown>) => (name: string) => values[name];

describe('clampSettings: strata.* values become usable settings, each change warned', () => {
  it('gives the schema defaults and no warning when nothing is set', () => {
    const r = clampSettings(reader({}));
    expect(r.engine).toEqual(engineSettingsSchema.parse({}));
    expect(r.model).toEqual({ model: 'claude-sonnet-5-5', condenseModel: '', baseUrl: '', autoApproveWrites: false, autoApproveCommands: false, redactSecrets: true });
    expect(r.warnings).toEqual([]);
  });

  it('strata.archive.driver: auto unless a driver is named; anything else is warned and read as auto', () => {
    expect(clampSettings(reader({})).archiveDriver).toBe('auto');
    expect(clampSettings(reader({ 'strata.archive.driver': 'node-sqlite' }))).toMatchObject({ archiveDriver: 'node-sqlite', warnings: [] });
    expect(clampSettings(reader({ 'strata.archive.driver': 'better-sqlite3' })).archiveDriver).toBe('better-sqlite3');
    expect(clampSettings(reader({ 'strata.archive.driver': 'sqlite3' }))).toMatchObject({
      archiveDriver: 'auto',
      warnings: ['strata.archive.driver is one of auto, node-sqlite, better-sqlite3 (got "sqlite3"); using auto.'],
    });
  });

  it('passes in-range values through unchanged', () => {
    const r = clampSettings(reader({ 'strata.autoCondensePercent': 65, 'strata.promptBudgetTokens': 50_000, 'strata.model': 'claude-opus-4-1', 'strata.autoApprove.writes': true }));
    expect(r.engine.autoCondensePercent).toBe(65);
    expect(r.engine.promptBudgetTokens).toBe(50_000);
    expect(r.model.model).toBe('claude-opus-4-1');
    expect(r.model.autoApproveWrites).toBe(true);
    expect(r.warnings).toEqual([]);
  });

  it('clamps above the maximum and below the minimum, naming the setting and the range', () => {
    const r = clampSettings(reader({ 'strata.autoCondensePercent': 150, 'strata.narrativeMaxTokens': 3 }));
    expect(r.engine.autoCondensePercent).toBe(100);
    expect(r.engine.narrativeMaxTokens).toBe(50);
    expect(r.warnings).toEqual([
      'strata.narrativeMaxTokens = 3 is outside 50..2000; using 50.',
      'strata.autoCondensePercent = 150 is outside 5..100; using 100.',
    ]);
  });

  it('rounds fractions of whole-number settings and replaces wrong types by the default', () => {
    const r = clampSettings(reader({ 'strata.workingMemoryMax': 12.6, 'strata.contextWindow': 'big', 'strata.condensePrompt': 42 }));
    expect(r.engine.workingMemoryMax).toBe(13);
    expect(r.engine.contextWindow).toBe(200_000);
    expect(r.engine.condensePrompt).toBeUndefined();
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings.join('\n')).toContain('strata.contextWindow must be a number');
  });

  it('raises workingMemoryMax to workingMemoryMin instead of failing', () => {
    const r = clampSettings(reader({ 'strata.workingMemoryMin': 20, 'strata.workingMemoryMax': 10 }));
    expect(r.engine.workingMemoryMax).toBe(20);
    expect(r.warnings[0]).toMatch(/workingMemoryMax \(10\) is below strata.workingMemoryMin \(20\)/);
  });

  it('treats an empty condense prompt as unset and cuts an overlong one', () => {
    expect(clampSettings(reader({ 'strata.condensePrompt': '' })).engine.condensePrompt).toBeUndefined();
    const long = clampSettings(reader({ 'strata.condensePrompt': 'x'.repeat(20_005) }));
    expect(long.engine.condensePrompt).toHaveLength(20_000);
    expect(long.warnings).toHaveLength(1);
  });

  it('strata.redactSecrets: on unless the user turns it off; an invalid value keeps it on', () => {
    expect(clampSettings(reader({})).model.redactSecrets).toBe(true);
    expect(clampSettings(reader({ 'strata.redactSecrets': false })).model.redactSecrets).toBe(false);
    const invalid = clampSettings(reader({ 'strata.redactSecrets': 'off' }));
    expect(invalid.model.redactSecrets).toBe(true);
    expect(invalid.warnings).toEqual([expect.stringContaining('strata.redactSecrets')]);
  });

  it('falls back to the default for an invalid model setting', () => {
    const r = clampSettings(reader({ 'strata.autoApprove.commands': 'yes', 'strata.model': '' }));
    expect(r.model.autoApproveCommands).toBe(false);
    expect(r.model.model).toBe('claude-sonnet-5-5');
    expect(r.warnings).toHaveLength(2);
  });

  it('says exactly what it changed and why, per setting', () => {
    const r = clampSettings(
      reader({
        'strata.contextPreset': 42,
        'strata.condensePrompt': 7,
        'strata.contextWindow': Number.POSITIVE_INFINITY,
        'strata.maxHeaders': 20.4,
        'strata.summaryCount': 60.2,
        'strata.model': 12,
      }),
    );
    expect(r.warnings).toEqual([
      'strata.contextWindow must be a number; using the default 200000.',
      'strata.contextPreset is one of economy, balanced, full-recall (got 42); using balanced.',
      'strata.maxHeaders must be a whole number; using 20 instead of 20.4.',
      'strata.summaryCount must be a whole number; using 60 instead of 60.2.',
      'strata.summaryCount = 60 is outside 0..50; using 50.',
      'strata.condensePrompt must be text; using the default.',
      'strata.model has an invalid value (12); using the default.',
    ]);
    expect(r.engine).toMatchObject({ contextWindow: 200_000, contextPreset: 'balanced', maxHeaders: 20, summaryCount: 50 });
    const long = clampSettings(reader({ 'strata.condensePrompt': 'Summarise. '.repeat(2_000) }));
    expect(long.warnings).toEqual(['strata.condensePrompt is 22000 characters, more than the 20000 allowed; only the first 20000 are used.']);
    expect(long.engine.condensePrompt).toBe('Summarise. '.repeat(2_000).slice(0, 20_000));
  });

  it('keeps the range edges and a condense prompt as written; a null value is unset, with no warning', () => {
    const r = clampSettings(
      reader({
        'strata.summaryCount': 0,
        'strata.maxHeaders': 2_000,
        'strata.condensePrompt': 'Keep file paths.',
        'strata.contextPreset': 'economy',
        'strata.workingMemoryMin': 5,
        'strata.workingMemoryMax': 5,
        'strata.model': null,
        'strata.autoApprove.writes': null,
        'strata.archive.driver': null,
        'strata.narrativeMaxTokens': null,
      }),
    );
    expect(r.warnings).toEqual([]);
    expect(r.engine).toMatchObject({ summaryCount: 0, maxHeaders: 2_000, condensePrompt: 'Keep file paths.', contextPreset: 'economy', workingMemoryMin: 5, workingMemoryMax: 5, narrativeMaxTokens: 300 });
    expect(r.model).toMatchObject({ model: 'claude-sonnet-5-5', autoApproveWrites: false });
    expect(r.archiveDriver).toBe('auto');
  });

  it('names both values when workingMemoryMax is below workingMemoryMin, and says what to do', () => {
    const r = clampSettings(reader({ 'strata.workingMemoryMin': 8, 'strata.workingMemoryMax': 7 }));
    expect(r.warnings).toEqual(['strata.workingMemoryMax (7) is below strata.workingMemoryMin (8); using 8 for both. Raise the maximum or lower the minimum.']);
    expect(r.engine).toMatchObject({ workingMemoryMin: 8, workingMemoryMax: 8 });
  });

  it('quotes at most 80 characters of a bad value, and reads the condensing model and the base URL', () => {
    const long = 'x'.repeat(100);
    const quoted = JSON.stringify(long).slice(0, 80);
    const r = clampSettings(reader({ 'strata.contextPreset': long, 'strata.archive.driver': long, 'strata.baseUrl': { url: long }, 'strata.condenseModel': 'claude-haiku-4' }));
    expect(r.warnings).toEqual([
      `strata.contextPreset is one of economy, balanced, full-recall (got ${quoted}); using balanced.`,
      `strata.baseUrl has an invalid value (${JSON.stringify({ url: long }).slice(0, 80)}); using the default.`,
      `strata.archive.driver is one of auto, node-sqlite, better-sqlite3 (got ${quoted}); using auto.`,
    ]);
    expect(r.model.condenseModel).toBe('claude-haiku-4');
    expect(clampSettings(reader({ 'strata.baseUrl': 'http://127.0.0.1:8080' })).model.baseUrl).toBe('http://127.0.0.1:8080');
  });

  it('keeps a condense prompt of exactly the allowed length, without a warning', () => {
    const r = clampSettings(reader({ 'strata.condensePrompt': 'y'.repeat(20_000) }));
    expect(r.warnings).toEqual([]);
    expect(r.engine.condensePrompt).toHaveLength(20_000);
  });
});

