import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import { useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useMentionCompletion } from '../mentions/useMentionCompletion';
import { MentionList } from './MentionList';

/**
 * The input box: Enter sends, Shift+Enter adds a line; `@` opens the mention list; Stop while a
 * turn runs; New session. A native textarea (themed with the input colours) rather than
 * vscode-textarea: the mention list needs the caret and a combobox role on the element that has
 * focus, which a shadow-DOM textarea does not expose.
 */
export function Composer(props: { running: boolean; onSend(text: string): void; onStop(): void; onNewSession(): void }) {
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionCompletion(text, caret, (next, at) => {
    setText(next);
    setCaret(at);
    // After React has written the new value: put the caret after the inserted mention.
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  });
  const submit = () => {
    const trimmed = text.trim();
    if (trimmed === '' || props.running) return;
    props.onSend(trimmed);
    setText('');
    setCaret(0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing || mentions.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };
  const track = (e: SyntheticEvent<HTMLTextAreaElement>) => setCaret(e.currentTarget.selectionStart);
  return (
    <footer className="composer">
      <MentionList completion={mentions} />
      <div data-testid="chat-input" className="composer-input">
        <textarea
          ref={input}
          className="composer-textarea"
          aria-label="Message Strata"
          placeholder="Ask Strata (Enter to send, Shift+Enter for a new line, @ to mention a file)"
          rows={3}
          value={text}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={mentions.open}
          aria-controls={mentions.open ? mentions.listId : undefined}
          aria-activedescendant={mentions.open ? mentions.optionId(mentions.active) : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
          }}
          onSelect={track}
          onKeyDown={onKeyDown}
          onBlur={() => setCaret(-1)}
          onFocus={track}
        />
      </div>
      <div className="composer-actions">
        <VscodeButton secondary icon="add" data-testid="new-session" onClick={props.onNewSession} title="Start a new, empty session">
          New session
        </VscodeButton>
        {props.running ? (
          <VscodeButton icon="debug-stop" data-testid="stop" onClick={props.onStop}>
            Stop
          </VscodeButton>
        ) : (
          <VscodeButton icon="send" data-testid="send" disabled={text.trim() === ''} onClick={submit}>
            Send
          </VscodeButton>
        )}
      </div>
    </footer>
  );
}
