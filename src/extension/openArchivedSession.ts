import type { ArchivedSessionInfo } from '../engine/archiveBrowser';
import { sessionLabel } from './archiveTreeModel';
import type { ChatController, ResumedHistory } from './chatController';
import { stopQuestion, type ConfirmStop } from './stopQuestion';

export interface OpenSessionSteps {
  /** The session's compact history, read from the archive only once it is to be opened. */
  history(): ResumedHistory;
  confirmStop: ConfirmStop;
}

/** `current`: the chat already uses it; `cancelled`: the user kept what runs; `opened`: the chat switched. */
export type OpenSessionOutcome = 'current' | 'cancelled' | 'opened';

/**
 * Open Session: switching the chat stops a running turn or condense, so the user is asked first
 * when one runs. Cancel leaves it running untouched; "Stop and open" stops it the way Stop does
 * (what the turn did, its partial answer too, is archived in its session) and then switches.
 * The history is read before anything is stopped, so an archive failure stops nothing.
 */
export async function openArchivedSession(
  chat: Pick<ChatController, 'currentSessionId' | 'busyWith' | 'resumeSession'>,
  session: Pick<ArchivedSessionInfo, 'id' | 'title'>,
  steps: OpenSessionSteps,
): Promise<OpenSessionOutcome> {
  if (session.id === chat.currentSessionId) return 'current';
  const busy = chat.busyWith;
  if (busy && !(await steps.confirmStop(stopQuestion(busy, { kind: 'open', label: sessionLabel(session) })))) return 'cancelled';
  const history = steps.history();
  await chat.resumeSession(session.id, history);
  return 'opened';
}
