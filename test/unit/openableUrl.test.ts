import { describe, expect, it } from 'vitest';
import { openableUrl } from '../../src/shared/openableUrl';

describe('openableUrl', () => {
  it('lets only absolute http, https and mailto URLs through', () => {
    expect(openableUrl('https://example.com')).toBe('https://example.com/');
    expect(openableUrl('http://127.0.0.1:3000/x')).toBe('http://127.0.0.1:3000/x');
    expect(openableUrl('mailto:dev@example.com')).toBe('mailto:dev@example.com');
    for (const href of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'command:strata.setApiKey', 'file:///etc/passwd', 'data:text/html,x', 'vscode://x', './a.ts', '#top', '', undefined]) expect(openableUrl(href)).toBeUndefined();
  });
});
