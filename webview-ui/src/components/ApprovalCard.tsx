import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import VscodeTextarea from '@vscode-elements/react-elements/dist/components/VscodeTextarea.js';
import { useEffect, useRef, useState, type ComponentRef } from 'react';
import type { ChatItem } from '../chatState';
import { postToHost } from '../vscodeApi';

type Approval = Extract<ChatItem, { kind: 'approval' }>;

/** Tools whose approval can show VS Code's diff editor (the file now against the proposed text). */
const DIFFABLE: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** A write or a command waiting for the user: Show diff (writes), Approve, or Reject with optional words for the model. */
export function ApprovalCard(props: { item: Approval; onAnswer(approved: boolean, feedback?: string): void }) {
  const { item } = props;
  const [feedback, setFeedback] = useState('');
  const card = useRef<HTMLDivElement>(null);
  const approve = useRef<ComponentRef<typeof VscodeButton>>(null);
  // A turn waiting here looks stuck unless the card is seen: bring it into view and put the
  // keyboard on Approve (Enter approves, Tab reaches Reject). Once, when it first shows.
  useEffect(() => {
    if (item.state !== 'pending') return;
    card.current?.scrollIntoView({ block: 'nearest' });
    approve.current?.focus({ preventScroll: true });
  }, []); // on mount only: a decided card never takes focus again
  return (
    <div ref={card} className={`msg approval ${item.state}`} data-testid="approval" data-state={item.state} role="group" aria-label={`Approval for ${item.tool}`}>
      <p>
        <span className="codicon codicon-shield" aria-hidden="true" /> Strata wants to {item.summary}
      </p>
      <details>
        <summary>Input</summary>
        <pre>{JSON.stringify(item.input, null, 2)}</pre>
      </details>
      {item.state === 'pending' ? (
        <>
          <VscodeTextarea
            data-testid="approval-feedback"
            rows={2}
            placeholder="Optional: why not, or what to do instead (sent to the model when you reject)"
            value={feedback}
            onInput={(e) => setFeedback((e.target as HTMLTextAreaElement).value)}
          />
          <div className="approval-actions">
            <VscodeButton ref={approve} icon="check" data-testid="approve" onClick={() => props.onAnswer(true)}>
              Approve
            </VscodeButton>
            <VscodeButton secondary icon="close" data-testid="reject" onClick={() => props.onAnswer(false, feedback.trim() || undefined)}>
              Reject
            </VscodeButton>
            {DIFFABLE.has(item.tool) && (
              <VscodeButton secondary icon="diff" data-testid="show-diff" title="Open the change in VS Code's diff editor" onClick={() => postToHost({ type: 'approval/showDiff', requestId: item.id })}>
                Show diff
              </VscodeButton>
            )}
          </div>
        </>
      ) : (
        <p className="approval-state">{item.state === 'approved' ? 'Approved.' : 'Rejected.'}</p>
      )}
    </div>
  );
}
