import { z } from 'zod';

const blockSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() }))]),
    is_error: z.boolean().optional(),
  }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);

/** An archived exchange's messages as every archive store writes them (read back through this). */
export const archivedBodySchema = z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.array(blockSchema) }));
