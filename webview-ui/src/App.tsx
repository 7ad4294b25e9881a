import { useCallback, useEffect, useReducer } from 'react';
import { parseHostToWebview } from '../../src/shared/webviewMessages';
import { chatReducer, initialChatState } from './chatState';
import { ApiKeyNotice } from './components/ApiKeyNotice';
import { Composer } from './components/Composer';
import { ContextPanel } from './components/ContextPanel';
import { MessageList } from './components/MessageList';
import { nextRequestId, postToHost } from './vscodeApi';

/** The sidebar: context panel on top, the chat flow, the composer at the bottom. */
export function App() {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);

  useEffect(() => {
    const onMessage = (event: MessageEvent<unknown>) => {
      const parsed = parseHostToWebview(event.data);
      if (parsed.ok) dispatch(parsed.message);
      else console.warn(`Strata webview: ${parsed.reason}`);
    };
    window.addEventListener('message', onMessage);
    postToHost({ type: 'webview/ready' });
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const send = useCallback((text: string) => {
    const requestId = nextRequestId();
    dispatch({ type: 'local/sent', requestId, text });
    postToHost({ type: 'chat/send', requestId, text });
  }, []);
  const resend = useCallback((seq: number, text: string) => {
    const requestId = nextRequestId();
    dispatch({ type: 'local/resent', requestId, seq, text });
    postToHost({ type: 'chat/resend', requestId, seq, text });
  }, []);
  const stop = useCallback(() => {
    if (state.running) postToHost({ type: 'chat/stop', requestId: state.running });
  }, [state.running]);
  const newSession = useCallback(() => postToHost({ type: 'session/new', requestId: nextRequestId() }), []);
  const answerApproval = useCallback((requestId: string, approved: boolean, feedback?: string) => {
    dispatch({ type: 'local/approvalAnswered', requestId, approved });
    postToHost({ type: 'approval/respond', requestId, approved, ...(feedback ? { feedback } : {}) });
  }, []);

  return (
    <main className="strata">
      <ContextPanel usage={state.usage} engine={state.engine} sessionCost={state.sessionCost} cacheHitRate={state.cacheHitRate} storage={state.storage} busy={state.running !== undefined} />
      {state.apiKey === 'none' && <ApiKeyNotice />}
      <MessageList items={state.items} onApproval={answerApproval} resend={{ userSeqs: state.userSeqs, superseded: state.superseded, onResend: resend }} />
      <Composer running={state.running !== undefined} onSend={send} onStop={stop} onNewSession={newSession} />
    </main>
  );
}
