import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { ExtraProps } from 'react-markdown';
import { codeLanguage } from '../markdown/codeLanguage';

/** How long "Copied" / "Copy failed" shows before the button reads "Copy" again, ms. */
const FEEDBACK_MS = 2_000;

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A fenced code block: its language and a Copy button (codicon) above the highlighted code.
 * Copy writes the code's text through the clipboard API; a refusal says how to copy by hand.
 */
export function CodeBlock({ node, children }: { node: ExtraProps['node']; children: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');
  useEffect(() => {
    if (copy === 'idle') return;
    const timer = setTimeout(() => setCopy('idle'), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copy]);

  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  const classes = code?.type === 'element' ? code.properties.className : undefined;
  const language = codeLanguage(Array.isArray(classes) ? classes.join(' ') : undefined);

  const onCopy = () => {
    navigator.clipboard.writeText(pre.current?.textContent ?? '').then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };
  const label = copy === 'copied' ? 'Copied' : copy === 'failed' ? 'Copy failed: select the code and press Ctrl+C' : 'Copy code';
  return (
    <div className="code-block" data-testid="code-block" data-language={language ?? ''}>
      <div className="code-block-bar">
        <span className="code-block-language">{language ?? ''}</span>
        <button type="button" className="icon-button" data-testid="copy-code" data-state={copy} title={label} aria-label={label} onClick={onCopy}>
          <span className={`codicon codicon-${copy === 'copied' ? 'check' : copy === 'failed' ? 'error' : 'copy'}`} aria-hidden="true" />
        </button>
      </div>
      <pre ref={pre}>{children}</pre>
    </div>
  );
}
