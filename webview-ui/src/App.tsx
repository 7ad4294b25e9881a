import { useCallback, useEffect, useReducer } from 'react';
import { chatReducer, initialChatState, sessionTitleOf } from './chatState';
import { ApiKeyNotice } from './components/ApiKeyNotice';
import { Composer } from './components/Composer';
import { ContextPanel } from './components/ContextPanel';
import { LiveAnnouncer } from './components/LiveAnnouncer';
import { MessageList } from './components/MessageList';
import { SessionHeader } from './components/SessionHeader';
import { SettingsPanel } from './components/SettingsPanel';
import { onHostMessage } from './hostMessages';
import { useSettingsPanel } from './settings/useSettingsPanel';
import { nextRequestId, postToHost } from './vscodeApi';

/** The sidebar: context panel on top, the chat flow, the composer at the bottom. */
export function App() {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);

  const settings = useSettingsPanel();

  useEffect(() => {
    const off = onHostMessage(dispatch);
    postToHost({ type: 'webview/ready' });
    return off;
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

  // The chat stays mounted (hidden) while the settings panel is open: a half-typed message survives.
  return (
    <>
      {settings.state.open && (
        <main className="strata settings-main">
          <SettingsPanel api={settings} />
        </main>
      )}
      <main className="strata" hidden={settings.state.open}>
      <SessionHeader title={sessionTitleOf(state)} sessionId={state.sessionId} condensing={state.condensing} />
      <ContextPanel usage={state.usage} figures={state.figures} timeline={state.timeline} sessionCost={state.sessionCost} storage={state.storage} busy={state.running !== undefined} />
      {state.apiKey === 'none' && <ApiKeyNotice />}
      <LiveAnnouncer items={state.items} running={state.running} />
      <MessageList items={state.items} onApproval={answerApproval} resend={{ userSeqs: state.userSeqs, superseded: state.superseded, onResend: resend }} />
      <Composer running={state.running !== undefined} onSend={send} onStop={stop} onNewSession={newSession} />
      </main>
    </>
  );
}
