import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantMarkdown } from '../../../webview-ui/src/components/AssistantMarkdown';
import { codeLanguage } from '../../../webview-ui/src/markdown/codeLanguage';

/** The answer's HTML as React renders it (react-dom/server, plain Node: no DOM needed). */
const render = (text: string) => renderToStaticMarkup(createElement(AssistantMarkdown, { text }));

describe('AssistantMarkdown: an answer as Markdown, highlighted, without raw HTML', () => {
  it('renders headings, lists, emphasis, inline code and GFM tables as elements', () => {
    const html = render('## Plan\n\n- read **a.ts**\n- run `npm test`\n\n| file | lines |\n| --- | --- |\n| a.ts | 12 |');
    expect(html).toContain('<h2>Plan</h2>');
    expect(html).toMatch(/<ul>\s*<li>read <strong>a\.ts<\/strong><\/li>\s*<li>run <code>npm test<\/code><\/li>\s*<\/ul>/);
    expect(html).toMatch(/<table>[\s\S]*<th>file<\/th>[\s\S]*<td>12<\/td>[\s\S]*<\/table>/);
  });

  it('highlights a ts fence with highlight.js classes, under a language label and a Copy button', () => {
    const html = render('```ts\nexport const hello: string = "world";\n```');
    expect(html).toContain('data-language="ts"');
    expect(html).toContain('data-testid="copy-code"');
    expect(html).toMatch(/<code class="hljs language-ts">/);
    expect(html).toContain('<span class="hljs-keyword">export</span>');
    expect(html).toContain('<span class="hljs-string">&quot;world&quot;</span>');
    // No inline style: the CSP allows none, colours come from markdown.css classes.
    expect(html).not.toContain('style=');
  });

  it('shows a fence still streaming (unclosed) as a highlighted code block, and leaves text fences plain', () => {
    const partial = render('Here:\n\n```ts\nconst a = 1;\nfunction f(');
    expect(partial).toContain('<p>Here:</p>');
    expect(partial).toMatch(/<code class="hljs language-ts"><span class="hljs-keyword">const<\/span> a = <span class="hljs-number">1<\/span>;/);
    expect(render('```text\nconst a = 1;\n```')).not.toContain('hljs');
    // An unknown language is shown as plain code, not an error.
    expect(render('```nosuchlang\nx\n```')).toMatch(/<code class="(hljs )?language-nosuchlang">x\n<\/code>/);
  });

  it('shows raw HTML in the answer as text, never as elements', () => {
    const html = render('Before <img src="x" onerror="alert(1)"> after\n\n<script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('keeps web links (the editor opens them) and makes other links and images inert', () => {
    const html = render('[docs](https://example.com/a?b=1) [run](javascript:alert(1)) [cmd](command:workbench.action.quit) [rel](./a.ts) ![logo](https://example.com/logo.png)');
    expect(html).toContain('<a href="https://example.com/a?b=1" title="https://example.com/a?b=1">docs</a>');
    expect(html).not.toMatch(/href="(javascript|command):|href="\.\/a\.ts"/);
    expect(html).toMatch(/<span class="inert-link"[^>]*>run<\/span>/);
    expect(html).toMatch(/<span class="inert-link"[^>]*>cmd<\/span>/);
    expect(html).toMatch(/<span class="inert-link"[^>]*>rel<\/span>/);
    expect(html).not.toContain('<img');
    expect(html).toContain('>[image: logo]</a>');
  });
});

describe('codeLanguage', () => {
  it('reads the fence language from language-* or lang-* classes', () => {
    expect(codeLanguage('hljs language-ts')).toBe('ts');
    expect(codeLanguage('lang-py')).toBe('py');
    expect(codeLanguage('hljs')).toBeUndefined();
    expect(codeLanguage(undefined)).toBeUndefined();
  });
});
