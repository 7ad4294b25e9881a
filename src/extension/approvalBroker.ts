import type { HostToWebview } from '../shared/webviewMessages';
import type { ApprovalDecision, ApprovalRequest } from '../task/tools/tool';

/** Which `strata.autoApprove.*` settings are on, read at each request (a change applies at once). */
export interface AutoApprove {
  writes: boolean;
  commands: boolean;
}

/** Tools that run shell commands; every other tool that asks for approval writes files. */
const COMMAND_TOOLS: ReadonlySet<string> = new Set(['execute_command']);

interface Pending {
  resolve(decision: ApprovalDecision): void;
}

/**
 * Asks the webview before a write or a command runs (the Task's `approve` port), unless the
 * matching auto-approve setting is on and the write is not to a protected path. Each question carries a fresh `requestId`; the webview's
 * `approval/respond` with that id settles it, once. Stopping a turn refuses what is still open,
 * so a tool never waits on a card nobody will click.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending & { message: HostToWebview }>();
  private counter = 0;

  constructor(
    private readonly send: (message: HostToWebview) => void,
    private readonly autoApprove: () => AutoApprove,
  ) {}

  /** Settles the approval `requestId` from the webview's answer; unknown or settled ids are ignored. */
  respond(requestId: string, approved: boolean, feedback?: string): boolean {
    const entry = this.pending.get(requestId);
    if (!entry) return false;
    this.pending.delete(requestId);
    this.send({ type: 'approval/settled', requestId, approved });
    const note = feedback?.trim();
    entry.resolve(approved ? { approved: true } : note ? { approved: false, feedback: note } : { approved: false });
    return true;
  }

  /** Refuses every open approval (the turn was stopped or the session closed). */
  refuseAll(reason: string): void {
    for (const id of [...this.pending.keys()]) {
      const entry = this.pending.get(id)!;
      this.pending.delete(id);
      this.send({ type: 'approval/settled', requestId: id, approved: false });
      entry.resolve({ approved: false, feedback: reason });
    }
  }

  /** Sends the open questions again (a reloaded webview lost its cards). */
  resendPending(): void {
    for (const entry of this.pending.values()) this.send(entry.message);
  }

  /** The tool and input of the open approval `requestId` (for "Show diff"); undefined once settled. */
  pendingRequest(requestId: string): { tool: string; input: unknown } | undefined {
    const message = this.pending.get(requestId)?.message;
    return message?.type === 'approval/request' ? { tool: message.tool, input: message.input } : undefined;
  }

  get openCount(): number {
    return this.pending.size;
  }

  /** Asks the webview (or auto-approves) on behalf of the turn `turnRequestId`. */
  ask(turnRequestId: string, request: ApprovalRequest): Promise<ApprovalDecision> {
    const auto = this.autoApprove();
    // A protected write (.git/, .vscode/, hooks ...) can run code: the user answers it, always.
    if (!request.protection && (COMMAND_TOOLS.has(request.tool) ? auto.commands : auto.writes)) return Promise.resolve({ approved: true });
    this.counter += 1;
    const requestId = `${turnRequestId}:approval${this.counter}`;
    const message: HostToWebview = { type: 'approval/request', requestId, turnRequestId, tool: request.tool, summary: request.summary, input: request.input };
    return new Promise((resolve) => {
      this.pending.set(requestId, { resolve, message });
      this.send(message);
    });
  }
}
