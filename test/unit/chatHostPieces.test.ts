import { describe, expect, it } from 'vitest';
import { ApprovalBroker, type AutoApprove } from '../../src/extension/approvalBroker';
import { diagnosticsText, MAX_PROBLEMS, type DiagnosticEntry } from '../../src/extension/diagnosticsText';
import { taskEventMessages } from '../../src/extension/taskEventMessages';
import { computeUsage } from '../../src/engine/usage';
import { parseHostToWebview, type HostToWebview } from '../../src/shared/webviewMessages';
import type { TaskEvent } from '../../src/task/taskEvents';

describe('taskEventMessages', () => {
  const usage = computeUsage(5_000, 200_000, 8_192, [{ layer: 'system', budget: 4_000, used: 3_000 }]);
  const report = {
    turn: 2,
    mode: 'full' as const,
    promptTokens: 5_000,
    budget: 30_000,
    layers: usage,
    usage: { inputTokens: 1_000, cacheWriteTokens: 0, cacheReadTokens: 3_000, outputTokens: 50 },
    cost: { inputUsd: 0.003, cacheWriteUsd: 0, cacheReadUsd: 0.0009, outputUsd: 0.00075, totalUsd: 0.00465, priced: true },
    cacheHitRate: 0.75,
    engineMs: 3,
    modelMs: 800,
    housekeeping: 'not_asked' as const,
  };

  it('maps every Task event to valid webview messages for its turn', () => {
    const cases: Array<[TaskEvent, HostToWebview[]]> = [
      [{ type: 'text', turn: 1, text: 'Hel' }, [{ type: 'chat/textDelta', requestId: 'r1', text: 'Hel' }]],
      [{ type: 'text', turn: 1, text: '' }, []],
      [{ type: 'tool_call', turn: 1, id: 't1', name: 'read_file', input: { path: 'a.ts' } }, [{ type: 'chat/toolCall', requestId: 'r1', toolUseId: 't1', name: 'read_file', input: { path: 'a.ts' } }]],
      [{ type: 'tool_result', turn: 1, id: 't1', name: 'read_file', text: 'x', isError: true }, [{ type: 'chat/toolResult', requestId: 'r1', toolUseId: 't1', text: 'x', isError: true }]],
      [{ type: 'request', turn: 2, layers: usage }, [{ type: 'chat/requestSent', requestId: 'r1', usage }]],
      [{ type: 'turn_done', report }, [{ type: 'chat/turnDone', requestId: 'r1', usage, cost: 0.00465, cacheHitRate: 0.75, promptTokens: report.usage.inputTokens + report.usage.cacheReadTokens, cacheReadTokens: report.usage.cacheReadTokens }]],
      [{ type: 'engine', event: { type: 'warning', turn: 1, message: 'w' } }, [{ type: 'chat/engineEvent', requestId: 'r1', event: { type: 'warning', turn: 1, message: 'w' } }]],
      [{ type: 'error', code: 'model_auth', message: 'bad key' }, [{ type: 'chat/error', requestId: 'r1', code: 'model_auth', message: 'bad key' }]],
      [{ type: 'idle', reason: 'step_limit' }, [{ type: 'chat/idle', requestId: 'r1', reason: 'step_limit' }]],
      [{ type: 'exchange', turn: 1, input: { role: 'user', content: [] }, output: { role: 'assistant', content: [] }, estimatedTokens: 1, reportedTokens: 1 }, []],
      [{ type: 'user_message', turn: 4, text: 'hi' }, [{ type: 'chat/userMessage', requestId: 'r1', seq: 4 }]],
      [{ type: 'resent', from: 2, by: 5, superseded: [2, 3] }, [{ type: 'chat/resent', requestId: 'r1', from: 2, by: 5, superseded: [2, 3] }]],
      // Notices, unreadable protocol blocks and waits are the chat's warning rows.
      [{ type: 'notice', turn: 3, kind: 'max_tokens', message: 'cut' }, [{ type: 'chat/engineEvent', requestId: 'r1', event: { type: 'warning', turn: 3, message: 'cut' } }]],
      [{ type: 'protocol_warning', turn: 3, message: 'bad block' }, [{ type: 'chat/engineEvent', requestId: 'r1', event: { type: 'warning', turn: 3, message: 'bad block' } }]],
      [{ type: 'waiting', turn: 3, ms: 2_000, message: 'waiting 2 s' }, [{ type: 'chat/engineEvent', requestId: 'r1', event: { type: 'warning', turn: 3, message: 'waiting 2 s' } }]],
    ];
    for (const [event, expected] of cases) {
      const messages = taskEventMessages(event, 'r1');
      expect(messages).toEqual(expected);
      for (const m of messages) expect(parseHostToWebview(m).ok).toBe(true);
    }
  });

  it('keeps a cache hit rate the API could not support inside 0..1', () => {
    const [m] = taskEventMessages({ type: 'turn_done', report: { ...report, cacheHitRate: Number.NaN } }, 'r1');
    expect(m).toMatchObject({ cacheHitRate: 0 });
  });
});

describe('ApprovalBroker', () => {
  function broker(auto: AutoApprove = { writes: false, commands: false }) {
    const sent: HostToWebview[] = [];
    return { sent, b: new ApprovalBroker((m) => sent.push(m), () => auto) };
  }
  const write = { tool: 'edit_file', input: { path: 'a.ts' }, summary: 'edit a.ts (1 block)' };
  const command = { tool: 'execute_command', input: { command: 'npm test' }, summary: 'run `npm test` in .' };

  it('asks the webview with a fresh id and settles once from its answer, passing the feedback on', async () => {
    const { sent, b } = broker();
    const decision = b.ask('r1', write);
    const ask = sent[0]!;
    expect(ask).toMatchObject({ type: 'approval/request', turnRequestId: 'r1', tool: 'edit_file', summary: 'edit a.ts (1 block)' });
    const id = ask.type === 'approval/request' ? ask.requestId : '';
    expect(b.respond('unknown', true)).toBe(false);
    expect(b.respond(id, false, '  not this file  ')).toBe(true);
    expect(await decision).toEqual({ approved: false, feedback: 'not this file' });
    expect(b.respond(id, true)).toBe(false);
    expect(sent.filter((m) => m.type === 'approval/settled')).toEqual([{ type: 'approval/settled', requestId: id, approved: false }]);
    const second = b.ask('r1', write);
    const id2 = (sent.at(-1) as { requestId: string }).requestId;
    expect(id2).not.toBe(id);
    b.respond(id2, true, 'ignored when approving');
    expect(await second).toEqual({ approved: true });
  });

  it('auto-approves writes and commands separately, by their own setting', async () => {
    const writes = broker({ writes: true, commands: false });
    expect(await writes.b.ask('r1', write)).toEqual({ approved: true });
    void writes.b.ask('r1', command);
    expect(writes.sent.map((m) => m.type)).toEqual(['approval/request']);
    const commands = broker({ writes: false, commands: true });
    expect(await commands.b.ask('r1', command)).toEqual({ approved: true });
    void commands.b.ask('r1', write);
    expect(commands.sent.map((m) => m.type)).toEqual(['approval/request']);
  });

  it('refuses what is open when the turn stops, and sends open questions again to a reloaded webview', async () => {
    const { sent, b } = broker();
    const one = b.ask('r1', write);
    const two = b.ask('r1', command);
    b.resendPending();
    expect(sent.filter((m) => m.type === 'approval/request')).toHaveLength(4);
    b.refuseAll('The user stopped the task.');
    expect(await one).toEqual({ approved: false, feedback: 'The user stopped the task.' });
    expect(await two).toEqual({ approved: false, feedback: 'The user stopped the task.' });
    expect(b.openCount).toBe(0);
    expect(sent.filter((m) => m.type === 'approval/settled')).toHaveLength(2);
  });
});

describe('diagnosticsText (@problems)', () => {
  const d = (path: string, line: number, severity: DiagnosticEntry['severity'], message: string, source?: string): DiagnosticEntry => ({ path, line, column: 3, severity, message, ...(source ? { source } : {}) });

  it('lists errors before warnings, sorted by place, without information or hints, one line each', () => {
    const text = diagnosticsText([d('b.ts', 9, 'warning', 'unused x', 'ts'), d('b.ts', 2, 'error', 'bad\n  type'), d('a.ts', 5, 'error', 'missing', 'ts'), d('a.ts', 1, 'hint', 'style')]);
    expect(text).toBe(['a.ts:5:3 error missing (ts)', 'b.ts:2:3 error bad type', 'b.ts:9:3 warning unused x (ts)'].join('\n'));
    expect(diagnosticsText([d('a.ts', 1, 'information', 'fyi')])).toBe('');
  });

  it(`caps the list at ${MAX_PROBLEMS} lines and counts the rest`, () => {
    const many = Array.from({ length: MAX_PROBLEMS + 7 }, (_, i) => d('a.ts', i + 1, 'error', `e${i}`));
    const lines = diagnosticsText(many).split('\n');
    expect(lines).toHaveLength(MAX_PROBLEMS + 1);
    expect(lines.at(-1)).toBe('… 7 more not listed');
  });

  it('sorts problems of one file by line, then column; exactly the cap lists all', () => {
    const text = diagnosticsText([
      { path: 'a.ts', line: 9, column: 1, severity: 'error', message: 'late' },
      { path: 'a.ts', line: 2, column: 7, severity: 'error', message: 'right' },
      { path: 'a.ts', line: 2, column: 3, severity: 'error', message: 'left' },
    ]);
    expect(text).toBe('a.ts:2:3 error left\na.ts:2:7 error right\na.ts:9:1 error late');
    const full = Array.from({ length: MAX_PROBLEMS }, (_, i) => d('a.ts', i + 1, 'error', `e${i}`));
    expect(diagnosticsText(full).split('\n')).toHaveLength(MAX_PROBLEMS);
  });
});
