import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import VscodeTextarea from '@vscode-elements/react-elements/dist/components/VscodeTextarea.js';
import { useState, type KeyboardEvent } from 'react';

/** The input box: Enter sends, Shift+Enter adds a line; Stop while a turn runs; New session. */
export function Composer(props: { running: boolean; onSend(text: string): void; onStop(): void; onNewSession(): void }) {
  const [text, setText] = useState('');
  const submit = () => {
    const trimmed = text.trim();
    if (trimmed === '' || props.running) return;
    props.onSend(trimmed);
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <footer className="composer">
      <VscodeTextarea
        data-testid="chat-input"
        className="composer-input"
        label="Message Strata"
        placeholder="Ask Strata (Enter to send, Shift+Enter for a new line)"
        rows={3}
        resize="vertical"
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={onKeyDown}
      />
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
