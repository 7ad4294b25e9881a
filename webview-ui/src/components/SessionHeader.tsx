/**
 * The session's title above the chat, with a New session action, and a line while Condense
 * runs (a paid model call that can take seconds).
 */
export function SessionHeader(props: { title: string; sessionId: string | undefined; condensing: boolean; onNewSession(): void }) {
  return (
    <header className="session-header">
      <div className="session-title-row">
        <span className="codicon codicon-comment-discussion" aria-hidden="true" />
        <h2 className="session-title" data-testid="session-title" data-session-id={props.sessionId} title={props.title}>
          {props.title}
        </h2>
        <button type="button" className="icon-button" data-testid="header-new-session" aria-label="New session" title="Start a new, empty session" onClick={props.onNewSession}>
          <span className="codicon codicon-add" aria-hidden="true" />
        </button>
      </div>
      {props.condensing && (
        <p className="condense-progress" data-testid="condense-progress" role="status" aria-live="polite">
          <span className="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Condensing the conversation…
        </p>
      )}
    </header>
  );
}
