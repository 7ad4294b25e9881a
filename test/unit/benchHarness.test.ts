import { describe, expect, it } from 'vitest';
import type { Message, MessagesRequest } from '../../src/shared/messages';
import { inputCost, PromptCache } from '../../src/cli/bench/cacheModel';
import { ClearToolUses, FullHistory, ObservationMasking, SlidingWindow } from '../../src/cli/bench/baselines';
import { Ledger } from '../../src/cli/bench/ledger';
import { emptyRecall, ratio, scoreRecall, sessionProbes } from '../../src/cli/bench/recall';
import { BlockCounter } from '../../src/cli/bench/strategy';
import { assistant, charTokenizer, text, toolResult, toolUse, user } from '../support/engineHarness';

const count = charTokenizer.count;
const chars = (n: number, c = 'a') => c.repeat(n);
const req = (messages: Message[], system = 'S'): MessagesRequest => ({ system: [{ type: 'text', text: system }], messages, tools: [] });
const mark = <T extends object>(b: T): T => ({ ...b, cache_control: { type: 'ephemeral' } });

describe('prompt-cache cost model (hand-computed, 4 characters a token)', () => {
  it('writes up to the last breakpoint, then reads the longest prefix an earlier request wrote', () => {
    const cache = new PromptCache();
    // system 1+3 = 4; message 4 + block 2000+3 = 2007; total 2011
    const first = req([user(mark(text(chars(8000))))]);
    expect(cache.bill(first, count)).toEqual({ total: 2011, cacheRead: 0, cacheWrite: 2011, plain: 0 });
    // + assistant 4+(1+3) = 8, + user 4+(100+3) = 107: total 2126; reads 2011, writes 115
    const second = req([user(text(chars(8000))), assistant(text('ok')), user(mark(text(chars(400))))]);
    const billed = cache.bill(second, count);
    expect(billed).toEqual({ total: 2126, cacheRead: 2011, cacheWrite: 115, plain: 0 });
    expect(inputCost(billed)).toBeCloseTo(2011 * 0.1 + 115 * 1.25, 6);
  });

  it('bills a changed prefix as a new write, content after the last breakpoint as plain, and ignores prefixes under 1,024 tokens', () => {
    const cache = new PromptCache();
    cache.bill(req([user(mark(text(chars(8000))))]), count);
    expect(cache.bill(req([user(mark(text(chars(8000, 'b'))))]), count)).toEqual({ total: 2011, cacheRead: 0, cacheWrite: 2011, plain: 0 });
    // breakpoint on the first block only: the 400-character tail is plain input
    expect(cache.bill(req([user(mark(text(chars(8000, 'b'))), text(chars(400)))]), count)).toEqual({ total: 2114, cacheRead: 2011, cacheWrite: 0, plain: 103 });
    const small = new PromptCache();
    small.bill(req([user(mark(text(chars(400))))]), count);
    expect(small.bill(req([user(mark(text(chars(400))))]), count)).toEqual({ total: 111, cacheRead: 0, cacheWrite: 0, plain: 111 });
  });

  it('costs output at 5 and side calls as plain input plus output', () => {
    const ledger = new Ledger(count, 200_000);
    const sideRequest = req([user(text(chars(400)))]); // 4 + 107 = 111
    ledger.record({ request: req([user(text(chars(400)))]), extraOutputTokens: 10, sideCalls: [{ request: sideRequest, outputTokens: 20 }], assembleMs: 0 }, 100, undefined);
    // main: 111 plain; output (100 + 10) * 5 = 550; side: 111 + 20 * 5 = 211
    expect(ledger.totals.cost).toBe(111 + 550 + 211);
    expect(ledger.totals.outputTokens).toBe(130);
  });
});

const session: Message[] = [
  user(text('Fix src/app.ts please')),
  assistant(toolUse('r1', 'Read', { file_path: 'src/app.ts' })),
  user(toolResult('r1', "1: const greetingMessage = 'hello';\n2: short")),
  assistant(toolUse('e1', 'Edit', { file_path: 'src/app.ts', old_string: "const greetingMessage = 'hello';", new_string: "const greetingMessage = 'hi';" })),
];

describe('recall probes (README rules)', () => {
  it('finds span lines copied from earlier tool output and references to earlier entities', () => {
    const probes = sessionProbes(session);
    expect(probes).toHaveLength(2);
    expect(probes[0]).toEqual({ spans: [], refs: [{ entity: 'src/app.ts', far: false }] });
    expect(probes[1]!.spans).toEqual(["const greetingMessage = 'hello';"]);
    expect(probes[1]!.refs).toEqual(expect.arrayContaining([{ entity: 'src/app.ts', far: false }, { entity: 'greetingMessage', far: false }]));
  });

  it('scores full history at 1 and a masked tool result as a span miss', () => {
    const probe = sessionProbes(session)[1]!;
    const full = emptyRecall();
    scoreRecall(probe, req(session.slice(0, 3)), full);
    expect(ratio(full.spanHit, full.spanTotal)).toBe(1);
    expect(ratio(full.refHit, full.refTotal)).toBe(1);
    const masked = emptyRecall();
    scoreRecall(probe, req([session[0]!, session[1]!, user(toolResult('r1', '[omitted]'))]), masked);
    expect(masked).toMatchObject({ spanHit: 0, spanTotal: 1, refTotal: 2, refHit: 1 });
  });

  it('calls a reference far when its last earlier mention is 10 or more messages back', () => {
    const long: Message[] = [user(text('Look at parseConfigFile first'))];
    for (let i = 0; i < 6; i++) long.push(assistant(text(`step ${i}`)), user(text(`ok ${i}`)));
    long.push(assistant(text('Now parseConfigFile again')));
    const probes = sessionProbes(long);
    expect(probes[probes.length - 1]!.refs).toEqual([{ entity: 'parseConfigFile', far: true }]);
  });
});

describe('baseline strategies see only the past and do what their papers say', () => {
  const ctx = (window: number) => ({ system: 'S', counter: new BlockCounter(count), window, reservedOutput: 0 });
  const history = (n: number): Message[] => {
    const out: Message[] = [user(text('task'))];
    for (let i = 1; i <= n; i++) out.push(assistant(toolUse(`t${i}`, 'Bash', { command: `run ${i}` })), user(toolResult(`t${i}`, chars(400, String(i % 10)))));
    return out;
  };

  it('full sends everything with one breakpoint at the end', async () => {
    const turn = await new FullHistory(ctx(200_000)).turn(history(3));
    expect(turn.request.messages).toHaveLength(7);
    expect(JSON.stringify(turn.request).match(/cache_control/g)).toHaveLength(1);
  });

  it('window keeps the first message and drops an even number of the oldest when over', async () => {
    const turn = await new SlidingWindow(ctx(1_000)).turn(history(10));
    const msgs = turn.request.messages;
    expect(msgs[0]!.content[0]).toEqual({ type: 'text', text: 'task' });
    expect(msgs.length % 2).toBe(1);
    expect(msgs.length).toBeLessThan(21);
    expect(new BlockCounter(count).messages(msgs)).toBeLessThanOrEqual(900);
  });

  it('masking keeps the last 10 tool results; clear-tool-uses waits for its trigger then keeps 3', async () => {
    const masked = JSON.stringify((await new ObservationMasking(ctx(200_000)).turn(history(12))).request);
    expect(masked.match(/Old tool output omitted/g)).toHaveLength(2);
    const under = JSON.stringify((await new ClearToolUses(ctx(200_000)).turn(history(12))).request);
    expect(under).not.toContain('cleared');
    const over = JSON.stringify((await new ClearToolUses(ctx(200_000), 500).turn(history(12))).request);
    expect(over.match(/Tool result cleared/g)).toHaveLength(9);
  });
});
