import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import VscodeToolbarButton from '@vscode-elements/react-elements/dist/components/VscodeToolbarButton.js';
import VscodeTextarea from '@vscode-elements/react-elements/dist/components/VscodeTextarea.js';
import { useState } from 'react';

/**
 * A user message. Once the host has named its exchange (`seq`), an Edit action puts the text
 * back in an edit box; Resend sends the new text from that point (a running turn stops first),
 * superseding this message and what followed. A superseded message cannot be edited again.
 */
export function UserMessage(props: { text: string; seq: number | undefined; superseded: boolean; onResend(seq: number, text: string): void }) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const { seq } = props;
  if (draft !== undefined && seq !== undefined) {
    const resend = () => {
      const text = draft.trim();
      if (text === '') return;
      setDraft(undefined);
      props.onResend(seq, text);
    };
    return (
      <div className="msg user editing" data-testid="user-edit">
        <VscodeTextarea data-testid="edit-input" label="Edit your message" rows={3} resize="vertical" value={draft} onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)} />
        <div className="composer-actions">
          <VscodeButton secondary data-testid="edit-cancel" onClick={() => setDraft(undefined)}>
            Cancel
          </VscodeButton>
          <VscodeButton icon="send" data-testid="edit-resend" disabled={draft.trim() === ''} onClick={resend} title="Send the edited message; the answers after it are superseded (kept in the archive)">
            Resend
          </VscodeButton>
        </div>
      </div>
    );
  }
  // Text and Edit on one line: the action sits beside the words, not floating in a tall box.
  return (
    <div className="msg user" data-seq={seq}>
      <span className="user-text">{props.text}</span>
      {seq !== undefined && !props.superseded && (
        <VscodeToolbarButton icon="edit" className="edit-action" data-testid="edit-message" label="Edit and resend this message" title="Edit and resend this message" onClick={() => setDraft(props.text)} />
      )}
    </div>
  );
}
