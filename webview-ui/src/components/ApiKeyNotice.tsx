import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import { postToHost } from '../vscodeApi';

/** Shown while neither SecretStorage nor ANTHROPIC_API_KEY holds a key. */
export function ApiKeyNotice() {
  return (
    <section className="notice" role="alert" data-testid="no-api-key">
      <span className="codicon codicon-key" aria-hidden="true" />
      <div>
        <p>
          <strong>No API key.</strong> Run <em>Strata: Set API Key</em> (kept in VS Code's SecretStorage) or start the editor with ANTHROPIC_API_KEY set.
        </p>
        <VscodeButton icon="key" onClick={() => postToHost({ type: 'command/run', command: 'strata.setApiKey' })}>
          Set API Key
        </VscodeButton>
      </div>
    </section>
  );
}
