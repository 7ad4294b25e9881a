import type { ArchiveBrowser, ArchivedSessionInfo } from '../engine/archiveBrowser';
import type { Logger } from '../engine/ports';
import { sessionLabel } from './archiveTreeModel';
import type { ArchivedSessionView, ChatController, ResumedHistory } from './chatController';
import { loadSession } from './sessionExport';
import { sessionHistory } from './sessionHistory';
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
  await chat.resumeSession(session.id, history, sessionLabel(session));
  return 'opened';
}

/** The archived session `sessionId` as the chat shows it (title, compact history); undefined when it is not archived. */
export function archivedSessionView(browser: ArchiveBrowser, sessionId: string): ArchivedSessionView | undefined {
  const info = browser.sessions().find((s) => s.id === sessionId);
  if (!info) return undefined;
  return { title: sessionLabel(info), history: sessionHistory(loadSession(browser, sessionId)) };
}

/**
 * At activation: the chat reopens the session it was in before the reload (as Open Session
 * would, through the same history), unless the archive cannot be read, which is logged and
 * leaves a new session.
 */
export function restoreLastSession(chat: Pick<ChatController, 'restoreLast'>, browser: ArchiveBrowser, logger: Logger): void {
  try {
    chat.restoreLast((id) => archivedSessionView(browser, id));
  } catch (error) {
    logger.error(`the last session could not be restored from the archive (${error instanceof Error ? error.message : String(error)}); the chat starts a new session, and Open Session lists the archived ones`);
  }
}
