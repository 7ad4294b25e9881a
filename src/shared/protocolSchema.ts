import { z } from 'zod';

/** The model's own bookkeeping, written at the end of an answer inside <housekeeping> tags. */
export const housekeepingSchema = z.object({
  /** One line per exchange id the request asked to describe. */
  headers: z.record(z.string(), z.string().max(400)).optional(),
  summaries: z.record(z.string(), z.string().max(4_000)).optional(),
  narrative: z
    .object({
      objective: z.string().max(2_000).optional(),
      state: z.string().max(2_000).optional(),
      achievements: z.array(z.string().max(400)).max(20).optional(),
      nextSteps: z.array(z.string().max(400)).max(20).optional(),
    })
    .optional(),
  decisions: z.array(z.string().max(400)).max(20).optional(),
  codeChanges: z.array(z.string().max(400)).max(50).optional(),
});

export type Housekeeping = z.infer<typeof housekeepingSchema>;

/** A request to bring archived exchanges back into the next prompt. */
export const contextRequestSchema = z.object({
  ids: z.array(z.string().max(20)).min(1).max(50),
  format: z.enum(['header', 'summary', 'full', 'mixed']).default('summary'),
});

export type ContextRequest = z.infer<typeof contextRequestSchema>;

/** What could be read from an answer's protocol blocks, and what could not. */
export interface ProtocolParse {
  housekeeping?: Housekeeping;
  contextRequests: ContextRequest[];
  problems: string[];
}

const TAG = /<(housekeeping|context_request)>([\s\S]*?)<\/\1>/g;

/** `text` without its protocol blocks, which are written for Strata and never shown or re-sent. */
export function withoutProtocolBlocks(text: string): string {
  return text.replace(TAG, '');
}

/** Reads the protocol blocks of an answer's text; malformed blocks become problems, never throws. */
export function parseProtocolBlocks(text: string): ProtocolParse {
  const result: ProtocolParse = { contextRequests: [], problems: [] };
  for (const match of text.matchAll(TAG)) {
    const [, tag, body] = match;
    let json: unknown;
    try {
      json = JSON.parse(body ?? '');
    } catch {
      result.problems.push(`<${tag}> block is not valid JSON; it was ignored.`);
      continue;
    }
    if (tag === 'housekeeping') {
      const parsed = housekeepingSchema.safeParse(json);
      if (parsed.success) result.housekeeping = parsed.data;
      else result.problems.push(`<housekeeping> block does not match the protocol: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
    } else {
      const parsed = contextRequestSchema.safeParse(json);
      if (parsed.success) result.contextRequests.push(parsed.data);
      else result.problems.push(`<context_request> block does not match the protocol: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
    }
  }
  const rest = withoutProtocolBlocks(text);
  for (const tag of ['housekeeping', 'context_request']) {
    if (rest.includes(`<${tag}>`)) result.problems.push(`<${tag}> has no closing </${tag}>; it was shown as text and ignored.`);
  }
  return result;
}
