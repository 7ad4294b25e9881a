import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Parsed } from '../../src/shared/webviewMessages';
import { parseHostToWebview, parseWebviewToHost } from '../../src/shared/webviewMessages';

/** 10,000 seeded cases per property, the same on every CI run (SEED / RUNS override them). */
const RUNS = { seed: Number(process.env.SEED ?? 20_261_126), numRuns: Number(process.env.RUNS ?? 10_000) };

const requestId = fc.string({ minLength: 1, maxLength: 100 });
const text = fc.string({ maxLength: 200 });

/** Valid messages the webview sends, one arbitrary per variant. */
const webviewToHost = fc.oneof(
  fc.constant({ type: 'webview/ready' }),
  fc.record({ type: fc.constant('chat/send'), requestId, text: fc.string({ minLength: 1, maxLength: 200 }) }),
  fc.record({ type: fc.constant('chat/stop'), requestId }),
  fc.record({ type: fc.constant('chat/resend'), requestId, seq: fc.integer({ min: 1, max: 10_000 }), text: fc.string({ minLength: 1, maxLength: 200 }) }),
  fc.record({ type: fc.constant('session/new'), requestId }),
  fc.record({ type: fc.constant('command/run'), command: fc.constantFrom('strata.setApiKey', 'strata.openSettings', 'strata.openSettingsEditor', 'strata.showLastRequest', 'strata.condenseNow') }),
  fc.record({ type: fc.constant('approval/respond'), requestId, approved: fc.boolean(), feedback: fc.string({ maxLength: 100 }) }, { requiredKeys: ['type', 'requestId', 'approved'] }),
  fc.record({ type: fc.constant('approval/showDiff'), requestId }),
  fc.record({ type: fc.constant('settings/get'), requestId }),
  fc.record({ type: fc.constant('mentions/query'), requestId, query: fc.string({ maxLength: 500 }) }),
);

const usage = fc.record({
  used: fc.nat(),
  window: fc.integer({ min: 1, max: 10_000_000 }),
  reservedOutput: fc.nat(),
  available: fc.nat(),
  percent: fc.nat({ max: 200 }),
  band: fc.constantFrom('green', 'yellow', 'red'),
  layers: fc.array(fc.record({ layer: fc.constantFrom('system', 'L0', 'L1', 'L2', 'L3', 'L4', 'input', 'retrieved'), budget: fc.nat(), used: fc.nat() }), { maxLength: 8 }),
});

/** Valid messages the host sends, for the variants that carry model or tool text. */
const hostToWebview = fc.oneof(
  fc.record({ type: fc.constant('chat/textDelta'), requestId, text }),
  fc.record({ type: fc.constant('chat/toolCall'), requestId, toolUseId: fc.string({ maxLength: 20 }), name: fc.string({ maxLength: 20 }), input: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ type: fc.constant('chat/toolResult'), requestId, toolUseId: fc.string({ maxLength: 20 }), text, isError: fc.boolean() }),
  fc.record({ type: fc.constant('chat/error'), requestId, code: fc.string({ maxLength: 20 }), message: text }),
  fc.record({ type: fc.constant('chat/requestSent'), requestId, usage }),
  fc.record({ type: fc.constant('chat/turnDone'), requestId, usage, cost: fc.double({ min: 0, max: 100, noNaN: true }), cacheHitRate: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ type: fc.constant('approval/request'), requestId, turnRequestId: requestId, tool: fc.string({ maxLength: 20 }), summary: text, input: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ type: fc.constant('approval/settled'), requestId, approved: fc.boolean() }),
);

/** Anything a broken or hostile peer could post: any JSON, or a real message with one field replaced or removed. */
function damaged(valid: fc.Arbitrary<Record<string, unknown>>) {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.tuple(valid, fc.nat(), fc.jsonValue({ maxDepth: 1 }), fc.boolean()).map(([message, pick, value, remove]) => {
      const keys = Object.keys(message);
      const key = keys[pick % keys.length]!;
      const copy: Record<string, unknown> = { ...message };
      if (remove) delete copy[key];
      else copy[key] = value;
      return copy;
    }),
  );
}

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** Either a message that parses again to itself (a whole, valid message), or a short reason. */
function expectParsedOrDropped(parsed: Parsed<unknown>, parse: (raw: unknown) => Parsed<unknown>): void {
  if (parsed.ok) {
    expect(parse(roundTrip(parsed.message))).toEqual({ ok: true, message: roundTrip(parsed.message) });
    return;
  }
  expect(parsed.reason).toMatch(/^dropped message "/);
  expect(parsed.reason.length).toBeLessThan(2_000);
}

describe.each([
  { direction: 'webview -> host', parse: parseWebviewToHost, valid: webviewToHost },
  { direction: 'host -> webview', parse: parseHostToWebview, valid: hostToWebview },
])('$direction messages (fast-check, 10,000 seeded cases each)', ({ parse, valid }) => {
  it('every valid message, after a trip through postMessage-like JSON, parses back equal', () => {
    fc.assert(
      fc.property(valid, (message) => {
        const parsed = parse(roundTrip(message));
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.message).toEqual(roundTrip(message));
      }),
      RUNS,
    );
  });

  it('any other value becomes a whole valid message or is dropped with a short reason; nothing throws', () => {
    let dropped = 0;
    fc.assert(
      fc.property(damaged(valid as fc.Arbitrary<Record<string, unknown>>), (raw) => {
        const parsed = parse(raw);
        expectParsedOrDropped(parsed, parse);
        if (!parsed.ok) dropped++;
      }),
      RUNS,
    );
    expect(dropped).toBeGreaterThan(RUNS.numRuns / 2);
  });

  it('a message whose type is unknown is always dropped', () => {
    fc.assert(
      fc.property(valid, fc.string({ maxLength: 30 }), (message, type) => {
        fc.pre(!['webview/ready', 'chat/', 'session/', 'command/', 'approval/', 'settings/', 'mentions/', 'apiKey/', 'storage/', 'usage/'].some((p) => type.startsWith(p)));
        expect(parse({ ...message, type }).ok).toBe(false);
      }),
      RUNS,
    );
  });
});
