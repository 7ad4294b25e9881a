import { globalConfig } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';

describe('zodJitless (imported first by the extension)', () => {
  it("switches zod to jitless parsing, whose object schemas never probe for eval (nor read the global navigator VS Code 1.13x's host warns about)", async () => {
    expect(globalConfig.jitless).not.toBe(true);
    await import('../../src/extension/zodJitless');
    expect(globalConfig.jitless).toBe(true);
  });
});
