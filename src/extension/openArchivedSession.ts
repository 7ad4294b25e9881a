import type { ArchivedSessionInfo } from '../engine/archiveBrowser';
import { sessionLabel } from './archiveTreeModel';
import type { ChatController, ResumedHistory } from './chatController';

/** The answer that stops what runs and opens the session; the modal dialog adds Cancel. */
export const STOP_AND_OPEN = 'Stop and open';

/** A modal question: `message` is the title line, `detail` the text under it. */
export interface StopQuestion {
  message: string;
  detail: string;
  confirm: typeof STOP_AND_OPEN;
}

export interface OpenSessionSteps {
  /** The session's compact history, read from the archive only once it is to be opened. */
  history(): ResumedHistory;
  /** Asks `question` (modal); true only for `STOP_AND_OPEN`. */
  confirmStop(question: StopQuestion): Promise<boolean>;
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
  if (busy && !(await steps.confirmStop(stopQuestion(busy, sessionLabel(session))))) return 'cancelled';
  const history = steps.history();
  await chat.resumeSession(session.id, history);
  return 'opened';
}

function stopQuestion(busy: NonNullable<ChatController['busyWith']>, label: string): StopQuestion {
  return busy === 'turn'
    ? {
        message: `A turn is running in the chat. Stop it and open "${label}"?`,
        detail: 'Stopping keeps what the turn has done: its exchanges and the answer so far stay archived in the current session, which you can open again. Cancel lets the turn go on.',
        confirm: STOP_AND_OPEN,
      }
    : {
        message: `Condense Now is running in the chat. Stop it and open "${label}"?`,
        detail: 'Stopping leaves the current session as it was before the condense; nothing archived is lost. Cancel lets the condense finish.',
        confirm: STOP_AND_OPEN,
      };
}
