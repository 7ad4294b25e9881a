/**
 * The modal question asked before a session switch stops what runs in the chat (a turn or Condense
 * Now). Open Session and New Session both ask it; Cancel always leaves what runs untouched.
 */

/** What runs in the chat. */
export type BusyKind = 'turn' | 'condense';

/** The switch the user asked for: open an archived session (its label) or start a new one. */
export type SessionSwitch = { kind: 'open'; label: string } | { kind: 'new' };

export const STOP_AND_OPEN = 'Stop and open';
export const STOP_AND_START_NEW = 'Stop and start new';

/** A modal question: `message` is the title line, `detail` the text under it, `confirm` the button that stops. */
export interface StopQuestion {
  message: string;
  detail: string;
  confirm: typeof STOP_AND_OPEN | typeof STOP_AND_START_NEW;
}

/** Asks `question` (modal); true only when the user chose `question.confirm`. */
export type ConfirmStop = (question: StopQuestion) => Promise<boolean>;

export function stopQuestion(busy: BusyKind, to: SessionSwitch): StopQuestion {
  const running = busy === 'turn' ? 'A turn is running in the chat.' : 'Condense Now is running in the chat.';
  const action = to.kind === 'open' ? `open "${to.label}"` : 'start a new session';
  const detail =
    busy === 'turn'
      ? 'Stopping keeps what the turn has done: its exchanges and the answer so far stay archived in the current session, which you can open again. Cancel lets the turn go on.'
      : 'Stopping leaves the current session as it was before the condense; nothing archived is lost. Cancel lets the condense finish.';
  return { message: `${running} Stop it and ${action}?`, detail, confirm: to.kind === 'open' ? STOP_AND_OPEN : STOP_AND_START_NEW };
}
