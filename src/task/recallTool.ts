import { z } from 'zod';
import type { ContextEngine } from '../engine/contextEngine';
import { defineTool, fail, ok } from './tools/tool';
import type { Tool } from './tools/tool';

/** Most hits a topic search returns. */
const SEARCH_LIMIT = 10;

const recallInput = z
  .object({
    ids: z.array(z.string().regex(/^e\d{1,9}$/, 'ids look like "e12"')).min(1).max(50).optional().describe('Exchange ids from <strata_context>, e.g. ["e12","e40"].'),
    format: z.enum(['header', 'summary', 'full', 'mixed']).default('full').describe('How much of each exchange to bring back.'),
    query: z.string().min(2).max(200).optional().describe('Words to search the archive for, when you do not know the ids.'),
  })
  .refine((v) => (v.ids === undefined) !== (v.query === undefined), { message: 'give either ids or query, not both and not neither' });

/**
 * The model's way to bring archived exchanges back (a context request as a tool call): by id, in
 * a format, within the engine's per-turn retrieval quota, or by topic through full-text search.
 * Unknown ids and an empty search are answered in text, never as failures of the session.
 */
export function recallTool(engine: Pick<ContextEngine, 'retrieve' | 'searchArchive'>): Tool {
  return defineTool({
    name: 'recall',
    description:
      'Bring archived exchanges of this session back into view: by id (from the headers, summaries and index in <strata_context>) as header, summary or full text, or search them by topic. Read-only and cheap; use it before re-running a command or re-reading a file whose output you only see as a pointer.',
    input: recallInput,
    needsApproval: false,
    summarize: (input) => (input.ids ? `recall ${input.ids.join(', ')} (${input.format})` : `search the archive for "${input.query}"`),
    run: async (input) => {
      if (input.ids) return ok(engine.retrieve(input.ids, input.format));
      const text = engine.searchArchive(input.query ?? '', SEARCH_LIMIT);
      return text.startsWith('The archive could not be searched') ? fail(text) : ok(text);
    },
  });
}
