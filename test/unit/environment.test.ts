import { describe, expect, it } from 'vitest';
import { MAX_ENV_TEXT_CHARS, MAX_OPEN_TABS, systemPrompt, turnEnvironmentBlock } from '../../src/task/environment';

describe('environment branches', () => {
  const stable = { os: 'linux', shell: '/bin/bash', workspaceRoot: '/w', frontEnd: 'strata chat' };

  it('the system text holds only what is stable, so it can be cached', () => {
    const a = systemPrompt(stable);
    expect(a).toBe(systemPrompt({ ...stable }));
    expect(a).toContain('Workspace root: /w');
    expect(a).not.toMatch(/Time:|Open tabs|Active file/);
  });

  it('appends user instructions only when given', () => {
    expect(systemPrompt(stable, '  Use tabs.  ')).toMatch(/## User instructions\nUse tabs\.$/);
    expect(systemPrompt(stable, ' ')).not.toContain('User instructions');
  });

  it('puts what changes per turn in one block, tabs capped, terminal keeping its tail', () => {
    const tabs = Array.from({ length: MAX_OPEN_TABS + 3 }, (_, i) => `f${i}.ts`);
    const terminal = `${'old '.repeat(MAX_ENV_TEXT_CHARS)}LATEST`;
    const block = turnEnvironmentBlock({ time: '2026-11-22T10:00:00Z', activeFile: 'a.ts', openTabs: tabs, terminalOutput: terminal, staleFiles: ['b.ts'] });
    const text = block!.text;
    expect(text).toMatch(/^<environment>\nTime: 2026-11-22T10:00:00Z\nActive file: a.ts/);
    expect(text).toContain(`f${MAX_OPEN_TABS - 1}.ts (+3 more)`);
    expect(text).not.toContain(`f${MAX_OPEN_TABS}.ts,`);
    expect(text).toContain('LATEST');
    expect(text.length).toBeLessThan(MAX_ENV_TEXT_CHARS + 1_000);
    expect(text).toContain('Changed on disk since you read them (read again before editing): b.ts');
  });

  it('sends nothing when nothing is known', () => {
    expect(turnEnvironmentBlock({})).toBeUndefined();
  });
});
