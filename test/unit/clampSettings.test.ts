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
});
