import { describe, expect, it } from 'vitest';
import { ApprovalBroker, type AutoApprove } from '../../src/extension/approvalBroker';
import type { HostToWebview } from '../../src/shared/webviewMessages';

// The edges of the extension's approval gate that chatHostPieces does not reach: a protected
// write under every auto-approve setting, the exact question sent, a blank refusal note, and the
// pending request "Show diff" reads.

function broker(auto: AutoApprove) {
  const sent: HostToWebview[] = [];
  return { sent, b: new ApprovalBroker((m) => sent.push(m), () => auto) };
}
const protectedWrite = { tool: 'write_file', input: { path: '.git/config' }, summary: 'write .git/config (1 lines)', protection: 'it is inside a .git folder' };
const protectedCommand = { tool: 'execute_command', input: { command: 'ls' }, summary: 'run `ls` in .', protection: 'x' };

describe('ApprovalBroker edges', () => {
  it('a protected request is asked whatever is auto-approved, with the exact question', async () => {
    for (const auto of [{ writes: true, commands: true }, { writes: true, commands: false }, { writes: false, commands: true }]) {
      const { sent, b } = broker(auto);
      const decision = b.ask('r7', protectedWrite);
      const commandDecision = b.ask('r7', protectedCommand);
      expect(sent).toEqual([
        { type: 'approval/request', requestId: 'r7:approval1', turnRequestId: 'r7', tool: 'write_file', summary: 'write .git/config (1 lines)', input: { path: '.git/config' } },
        { type: 'approval/request', requestId: 'r7:approval2', turnRequestId: 'r7', tool: 'execute_command', summary: 'run `ls` in .', input: { command: 'ls' } },
      ]);
      expect(b.openCount).toBe(2);
      b.respond('r7:approval1', true);
      b.respond('r7:approval2', false);
      expect(await decision).toEqual({ approved: true });
      expect(await commandDecision).toEqual({ approved: false });
    }
  });

  it('a refusal whose note is blank carries no feedback', async () => {
    const { b } = broker({ writes: false, commands: false });
    const decision = b.ask('r1', protectedWrite);
    expect(b.respond('r1:approval1', false, ' \n ')).toBe(true);
    expect(await decision).toEqual({ approved: false });
  });

  it('pendingRequest gives the open request for "Show diff", and nothing once settled or unknown', () => {
    const { b } = broker({ writes: false, commands: false });
    void b.ask('r1', protectedWrite);
    expect(b.pendingRequest('r1:approval1')).toEqual({ tool: 'write_file', input: { path: '.git/config' } });
    expect(b.pendingRequest('r1:approval2')).toBeUndefined();
    b.refuseAll('stopped');
    expect(b.pendingRequest('r1:approval1')).toBeUndefined();
  });

  it('refusing all tells the webview each card was refused', () => {
    const { sent, b } = broker({ writes: false, commands: false });
    void b.ask('r1', protectedWrite);
    void b.ask('r1', protectedCommand);
    sent.length = 0;
    b.refuseAll('stopped');
    expect(sent).toEqual([
      { type: 'approval/settled', requestId: 'r1:approval1', approved: false },
      { type: 'approval/settled', requestId: 'r1:approval2', approved: false },
    ]);
  });

  it('resends only what is still open', () => {
    const { sent, b } = broker({ writes: false, commands: false });
    void b.ask('r1', protectedWrite);
    void b.ask('r1', protectedCommand);
    b.respond('r1:approval1', true);
    sent.length = 0;
    b.resendPending();
    expect(sent.map((m) => (m.type === 'approval/request' ? m.requestId : m.type))).toEqual(['r1:approval2']);
  });
});
