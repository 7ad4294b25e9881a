/**
 * The session's title above the chat (New Session is the view's + action just above it, and a
 * button under the input), and a line while Condense runs (a paid model call that can take seconds).
 */
export function SessionHeader(props: { title: string; sessionId: string | undefined; condensing: boolean }) {
  return (
    <header className="session-header">
      <div className="session-title-row">
        <span className="codicon codicon-comment-discussion" aria-hidden="true" />
        <h2 className="session-title" data-testid="session-title" data-session-id={props.sessionId} title={props.title}>
          {props.title}
        </h2>
      </div>
      {props.condensing && (
        <p className="condense-progress" data-testid="condense-progress" role="status" aria-live="polite">
          <span className="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Condensing the conversation…
        </p>
      )}
    </header>
  );
}
