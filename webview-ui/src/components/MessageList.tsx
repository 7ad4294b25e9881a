import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import { useRef } from 'react';
import type { ChatItem, EngineEventView } from '../chatState';
import { useFollow } from '../follow/useFollow';
import { ApprovalCard } from './ApprovalCard';
import { AssistantMarkdown } from './AssistantMarkdown';
import { ToolRow } from './ToolRow';
import { UserMessage } from './UserMessage';

type AnswerApproval = (requestId: string, approved: boolean, feedback?: string) => void;

/** Edit and resend: exchange ids of user messages, superseded item ids, and the resend action. */
export interface ResendProps {
  userSeqs: Record<string, number>;
  superseded: string[];
  onResend(seq: number, text: string): void;
}

/** The chat flow: user and assistant text, tool rows, approvals, engine events, errors. */
export function MessageList(props: { items: ChatItem[]; onApproval: AnswerApproval; resend: ResendProps }) {
  const scroller = useRef<HTMLElement>(null);
  const follow = useFollow(scroller, props.items, lastSent(props.items));
  // Not aria-live itself: every streamed delta would be read. LiveAnnouncer says what matters.
  if (props.items.length === 0) {
    return (
      <div className="messages-frame">
        <section className="messages empty" data-testid="messages" aria-label="Conversation">
          <p>New session. Ask about your code; the context engine keeps the prompt small as the session grows.</p>
        </section>
      </div>
    );
  }
  return (
    <div className="messages-frame">
    <section className="messages" data-testid="messages" aria-label="Conversation" ref={scroller} onScroll={follow.onScroll}>
      {props.items.map((item) => (
        props.resend.superseded.includes(item.id) ? (
          <div key={item.id} className="superseded" data-testid="superseded" title="Superseded by an edited message (kept in the archive)">
            <Row item={item} onApproval={props.onApproval} resend={props.resend} />
          </div>
        ) : (
          <Row key={item.id} item={item} onApproval={props.onApproval} resend={props.resend} />
        )
      ))}
    </section>
    {!follow.state.following && (
      <VscodeButton className={`jump-latest${follow.state.unseen ? ' unseen' : ''}`} icon="arrow-down" data-testid="jump-latest" title="Scroll to the newest message and follow again" onClick={follow.jumpToLatest}>
        Jump to latest
      </VscodeButton>
    )}
    </div>
  );
}

function Row({ item, onApproval, resend }: { item: ChatItem; onApproval: AnswerApproval; resend: ResendProps }) {
  switch (item.kind) {
    case 'user':
      if (item.past) {
        return (
          <div className="msg user past" data-testid="history-entry">
            {item.text}
          </div>
        );
      }
      return <UserMessage text={item.text} seq={resend.userSeqs[item.id]} superseded={resend.superseded.includes(item.id)} onResend={resend.onResend} />;
    case 'assistant':
      return item.past ? (
        <div className={`msg ${item.kind} past`} data-testid="history-entry">
          <AssistantMarkdown text={item.text} />
        </div>
      ) : (
        <div className={`msg ${item.kind}`}>
          <AssistantMarkdown text={item.text} />
        </div>
      );
    case 'approval':
      return <ApprovalCard item={item} onAnswer={(approved, feedback) => onApproval(item.id, approved, feedback)} />;
    case 'tool':
      return <ToolRow item={item} />;
    case 'event':
      return (
        <div className="msg event" data-testid="engine-event" data-event={item.event.type}>
          <span className="codicon codicon-fold" aria-hidden="true" /> {describeEvent(item.event)}
        </div>
      );
    case 'error':
      return (
        <div className="msg error" role="alert" data-code={item.code}>
          <span className="codicon codicon-error" aria-hidden="true" /> {item.message}
        </div>
      );
  }
}

/** Id of the last message the user sent in this view (not history): a new one follows the flow again. */
function lastSent(items: readonly ChatItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'user' && !item.past) return item.id;
  }
  return undefined;
}

function describeEvent(e: EngineEventView): string {
  switch (e.type) {
    case 'condense_context':
      return `Condensed: ${e.tokensBefore.toLocaleString()} -> ${e.tokensAfter.toLocaleString()} tokens`;
    case 'condense_context_error':
      return `Condensing failed: ${e.error}`;
    case 'sliding_window_truncation':
      return `Sliding window: ${e.removedExchanges} exchanges dropped, ${e.tokensBefore.toLocaleString()} -> ${e.tokensAfter.toLocaleString()} tokens`;
    case 'outputs_masked':
      return `Masked ${e.masked} older outputs: ${e.tokensBefore.toLocaleString()} -> ${e.tokensAfter.toLocaleString()} tokens`;
    case 'relayer':
      return `Re-layered through exchange ${e.foldedThrough}`;
    case 'warning':
      return e.message;
  }
}
