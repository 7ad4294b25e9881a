import type { ApprovalDecision, ApprovalRequest } from '../task/tools/tool';
import { terminalText } from './terminalText';

export interface ChatApprovalOptions {
  /** `--yes`: approve writes and commands without asking, protected paths excepted. */
  yes: boolean;
  /** `--allow-protected-writes`: with --yes, protected paths are approved too. */
  allowProtectedWrites: boolean;
  /** A terminal to ask at (stdin is a TTY). */
  interactive: boolean;
  /** Reads the user's answer line; `undefined` at the end of input. */
  readAnswer(): Promise<string | undefined>;
  err(text: string): void;
}

/** Said to the model when --yes refuses a protected write. */
export const PROTECTED_REFUSAL_FEEDBACK =
  'This path is protected because writing it can run code; strata chat --yes never writes it. Do without it, or tell the user to approve it themselves (without --yes) or to allow it with --allow-protected-writes.';

/**
 * The `approve` port of `strata chat`. The prompt escapes control characters and bidi overrides
 * (`terminalText`, line mode), so a command cannot redraw the "Allow ...?" line it is asked under.
 */
export function chatApprover(o: ChatApprovalOptions): (request: ApprovalRequest) => Promise<ApprovalDecision> {
  return async (request) => {
    const summary = terminalText(request.summary, 'line');
    if (o.yes && request.protection && !o.allowProtectedWrites) {
      o.err(`refused under --yes, the path is protected: ${summary}\n  run without --yes to answer it yourself, or add --allow-protected-writes\n`);
      return { approved: false, feedback: PROTECTED_REFUSAL_FEEDBACK };
    }
    if (o.yes) return { approved: true };
    if (!o.interactive) {
      o.err(`refused (no terminal to ask; run with --yes to allow): ${summary}\n`);
      return { approved: false, feedback: 'The user is not at a terminal to approve this; do without it or say what you need.' };
    }
    o.err(`Allow ${summary}? [y/N, or say why not] `);
    const answer = (await o.readAnswer())?.trim() ?? '';
    if (/^y(es)?$/i.test(answer)) return { approved: true };
    return answer && !/^n(o)?$/i.test(answer) ? { approved: false, feedback: answer } : { approved: false };
  };
}
