import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight, { type Options as HighlightOptions } from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { openableUrl } from '../../../src/shared/openableUrl';
import { CodeBlock } from './CodeBlock';

/**
 * lowlight's `common` grammars (about 37: ts, js, py, sh, json, css, html ...), no auto-detect:
 * a fence without a language stays plain. `text` fences are left unhighlighted on purpose.
 */
const highlight: HighlightOptions = { detect: false, plainText: ['text', 'txt', 'plain', 'plaintext'] };

const components: Components = {
  // An http(s)/mailto link keeps its href: VS Code's webview hands the click to the editor's
  // opener (its trusted-domain prompt included); nothing navigates inside the webview.
  a: ({ href, children }) => {
    const url = openableUrl(href);
    return url ? (
      <a href={url} title={url}>
        {children}
      </a>
    ) : (
      <span className="inert-link" title={`Not a web link, so not opened: ${href ?? ''}`}>
        {children}
      </span>
    );
  },
  // The CSP loads no remote image: an image shows as its alt text and, if it has one, a link.
  img: ({ src, alt }) => {
    const url = typeof src === 'string' ? openableUrl(src) : undefined;
    const label = `[image: ${alt || 'no description'}]`;
    return url ? <a href={url} title={url}>{label}</a> : <span className="inert-link">{label}</span>;
  },
  pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
};

/**
 * An assistant answer as Markdown (CommonMark + GFM tables, task lists, strikethrough), made into
 * React elements by react-markdown: raw HTML in the text is shown as text, never parsed into the
 * DOM. Safe on partial text while it streams: an unclosed fence is a code block to the end.
 * Memoized on `text`, so a streaming answer re-renders alone, not the whole flow.
 */
export const AssistantMarkdown = memo(function AssistantMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, highlight]]} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
