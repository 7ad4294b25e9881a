import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settingSpecFor } from '../../src/extension/settingsSpec';

/**
 * How one engineSettingsSchema field becomes a setting (settingsManifest.test.ts checks the whole
 * schema against package.json): what a field must declare, and the error that names it otherwise.
 */
describe('settingSpecFor', () => {
  it('reads range, default and kind through default() and optional() wrappers', () => {
    expect(settingSpecFor('contextWindow', z.number().int().min(1).max(9).default(4))).toEqual({ key: 'contextWindow', kind: 'integer', default: 4, minimum: 1, maximum: 9 });
    expect(settingSpecFor('contextWindow', z.number().min(0).max(1).default(0.5))).toEqual({ key: 'contextWindow', kind: 'number', default: 0.5, minimum: 0, maximum: 1 });
    expect(settingSpecFor('condensePrompt', z.string().max(10).default('brief'))).toEqual({ key: 'condensePrompt', kind: 'string', default: 'brief', maxLength: 10 });
    expect(settingSpecFor('condensePrompt', z.string().max(10).optional())).toEqual({ key: 'condensePrompt', kind: 'string', default: undefined, maxLength: 10 });
    // The default outside an optional() is kept when the unwrapping reaches the optional.
    expect(settingSpecFor('condensePrompt', z.string().max(10).optional().default('kept'))).toMatchObject({ default: 'kept' });
    expect(settingSpecFor('contextPreset', z.enum(['economy', 'balanced']).default('economy'))).toEqual({ key: 'contextPreset', kind: 'enum', default: 'economy', options: ['economy', 'balanced'] });
  });

  it('refuses a field it cannot show as a setting, naming the key and what is missing', () => {
    const needsRange = 'engineSettingsSchema.maxHeaders needs a minimum, a maximum and a default to become a setting.';
    expect(() => settingSpecFor('maxHeaders', z.number().int().max(9).default(4))).toThrow(needsRange);
    expect(() => settingSpecFor('maxHeaders', z.number().int().min(1).default(4))).toThrow(needsRange);
    expect(() => settingSpecFor('maxHeaders', z.number().int().min(1).max(9))).toThrow(needsRange);
    expect(() => settingSpecFor('condensePrompt', z.string().default('x'))).toThrow('engineSettingsSchema.condensePrompt needs a maximum length to become a setting.');
    expect(() => settingSpecFor('contextPreset', z.enum(['a', 'b']))).toThrow('engineSettingsSchema.contextPreset needs a default to become a setting.');
    expect(() => settingSpecFor('maxHeaders', z.boolean().default(true))).toThrow('engineSettingsSchema.maxHeaders has type boolean, which settingsSpec.ts does not map to a setting yet.');
    // Only default() and optional() are looked through: a nullable field is not a setting.
    expect(() => settingSpecFor('maxHeaders', z.number().int().min(1).max(9).default(4).nullable())).toThrow('engineSettingsSchema.maxHeaders has type nullable');
  });
});
