import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StrataError } from '../../src/shared/strataError';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { defineTool, fail, ok } from '../../src/task/tools/tool';
import type { ApprovalDecision, Tool, ToolContext } from '../../src/task/tools/tool';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

// The approval gate on its own, with tools that record whether they ran: a refused, stopped or
// invalid call must never reach `run`, whatever the decision carries.

let fx: ToolFixture;
afterEach(() => fx?.remove());

const ran: string[] = [];
const input = z.object({ path: z.string() });

function tool(o: { name: string; needsApproval: boolean; protect?: string; throws?: unknown }): Tool {
  return defineTool({
    name: o.name,
    description: `the ${o.name} tool`,
    input,
    needsApproval: o.needsApproval,
    summarize: (i) => `${o.name} ${i.path}`,
    ...(o.protect !== undefined ? { protection: async () => o.protect } : {}),
    run: async (i) => {
      if (o.throws !== undefined) throw o.throws;
      ran.push(`${o.name} ${i.path}`);
      return ok(`did ${i.path}`);
    },
  });
}

const TOOLS = [tool({ name: 'look', needsApproval: false }), tool({ name: 'change', needsApproval: true }), tool({ name: 'guarded', needsApproval: true, protect: 'it is inside a .git folder' })];

function context(decision: ApprovalDecision): ToolContext {
  fx = makeToolFixture();
  ran.length = 0;
  const ctx = fx.ctx;
  ctx.approve = async (request) => {
    fx.approvals.push(request);
    return decision;
  };
  return ctx;
}

describe('runToolCall', () => {
  it('runs a tool that needs no approval without asking', async () => {
    const ctx = context({ approved: false });
    expect(await runToolCall({ name: 'look', input: { path: 'a' } }, ctx, TOOLS)).toEqual({ isError: false, text: 'did a' });
    expect(fx.approvals).toEqual([]);
    expect(ran).toEqual(['look a']);
  });

  it('asks before a tool that needs approval, with the summary and validated input, and runs it once approved', async () => {
    const ctx = context({ approved: true });
    expect(await runToolCall({ name: 'change', input: { path: 'b', extra: 1 } }, ctx, TOOLS)).toEqual({ isError: false, text: 'did b' });
    expect(fx.approvals).toEqual([{ tool: 'change', input: { path: 'b' }, summary: 'change b' }]);
    expect(ran).toEqual(['change b']);
  });

  it('a refusal without feedback runs nothing and says so', async () => {
    const ctx = context({ approved: false });
    expect(await runToolCall({ name: 'change', input: { path: 'b' } }, ctx, TOOLS)).toEqual({ isError: true, text: 'The user refused: change b. Nothing was done.' });
    expect(ran).toEqual([]);
  });

  it('a refusal with feedback passes the words on', async () => {
    const ctx = context({ approved: false, feedback: 'use c' });
    expect(await runToolCall({ name: 'change', input: { path: 'b' } }, ctx, TOOLS)).toEqual({ isError: true, text: 'The user refused: change b. Nothing was done. The user said: use c' });
    expect(ran).toEqual([]);
  });

  it('a protected call carries its reason in the request and the summary', async () => {
    const ctx = context({ approved: false });
    const r = await runToolCall({ name: 'guarded', input: { path: '.git/config' } }, ctx, TOOLS);
    const summary = 'guarded .git/config (protected: it is inside a .git folder)';
    expect(fx.approvals).toEqual([{ tool: 'guarded', input: { path: '.git/config' }, summary, protection: 'it is inside a .git folder' }]);
    expect(r).toEqual({ isError: true, text: `The user refused: ${summary}. Nothing was done.` });
    expect(ran).toEqual([]);
  });

  it('a protection check that finds nothing adds nothing to the request', async () => {
    const ctx = context({ approved: true });
    const tools = [tool({ name: 'guarded', needsApproval: true, protect: '' })];
    await runToolCall({ name: 'guarded', input: { path: 'src/a.ts' } }, ctx, tools);
    expect(fx.approvals).toEqual([{ tool: 'guarded', input: { path: 'src/a.ts' }, summary: 'guarded src/a.ts' }]);
  });

  it('a stopped turn runs nothing and asks nothing', async () => {
    const ctx = context({ approved: true });
    const stop = new AbortController();
    stop.abort();
    ctx.signal = stop.signal;
    for (const name of ['look', 'change']) {
      expect(await runToolCall({ name, input: { path: 'a' } }, ctx, TOOLS)).toEqual({ isError: true, text: `The user stopped the task before ${name} ran.` });
    }
    expect(fx.approvals).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('an unknown tool or an invalid input runs nothing, and the message says what to do', async () => {
    const ctx = context({ approved: true });
    expect(await runToolCall({ name: 'nope', input: { path: 'a' } }, ctx, TOOLS)).toEqual({ isError: true, text: "Unknown tool 'nope'. The tools are: look, change, guarded." });
    expect(await runToolCall({ name: 'change', input: { path: 3 } }, ctx, TOOLS)).toEqual({
      isError: true,
      text: 'Invalid input for change; nothing was done. Fix these fields and call it again:\n- path: Invalid input: expected string, received number',
    });
    expect((await runToolCall({ name: 'change', input: null }, ctx, TOOLS)).text).toBe(
      'Invalid input for change; nothing was done. Fix these fields and call it again:\n- (input): Invalid input: expected object, received null',
    );
    expect(fx.approvals).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('several bad fields are listed one a line', async () => {
    const ctx = context({ approved: true });
    const two = defineTool({ name: 't', description: 't', input: z.object({ a: z.string(), b: z.number() }), needsApproval: false, summarize: () => 't', run: async () => ok('') });
    expect((await runToolCall({ name: 't', input: {} }, ctx, [two])).text).toBe(
      'Invalid input for t; nothing was done. Fix these fields and call it again:\n- a: Invalid input: expected string, received undefined\n- b: Invalid input: expected number, received undefined',
    );
  });

  it('a nested field is named by its whole path', async () => {
    const ctx = context({ approved: true });
    const nested = defineTool({ name: 'n', description: 'n', input: z.object({ a: z.object({ b: z.array(z.string()) }) }), needsApproval: false, summarize: () => 'n', run: async () => ok('') });
    expect((await runToolCall({ name: 'n', input: { a: { b: ['x', 2] } } }, ctx, [nested])).text).toBe(
      'Invalid input for n; nothing was done. Fix these fields and call it again:\n- a.b.1: Invalid input: expected string, received number',
    );
  });

  it('a failing tool comes back as an error result: a StrataError as it is, anything else named', async () => {
    const ctx = context({ approved: true });
    const tools = [
      tool({ name: 'plain', needsApproval: false, throws: new StrataError('The pattern is too slow; simplify it.', 'x') }),
      tool({ name: 'boom', needsApproval: false, throws: new Error('disk full') }),
      tool({ name: 'odd', needsApproval: false, throws: 'a string' }),
    ];
    expect(await runToolCall({ name: 'plain', input: { path: 'a' } }, ctx, tools)).toEqual({ isError: true, text: 'The pattern is too slow; simplify it.' });
    expect(await runToolCall({ name: 'boom', input: { path: 'a' } }, ctx, tools)).toEqual({ isError: true, text: 'boom failed: disk full' });
    expect(await runToolCall({ name: 'odd', input: { path: 'a' } }, ctx, tools)).toEqual({ isError: true, text: 'odd failed: a string' });
  });

  it('defineTool keeps the spec and results are built as ok/fail say', () => {
    const t = TOOLS[1]!;
    expect([t.name, t.description, t.needsApproval, t.inputSchema]).toEqual(['change', 'the change tool', true, input]);
    expect(ok('x')).toEqual({ text: 'x', isError: false });
    expect(fail('y')).toEqual({ text: 'y', isError: true });
  });
});
