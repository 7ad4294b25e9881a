import { blockText } from './blockTokens';
import type { Summarizer, SummarizeRequest, SummarizeResult, Tokenizer } from './ports';
import { requestTokens } from './blockTokens';

const SIGNAL = /\b(decid|chose|because|fix|fail|error|pass|changed|created|added|removed|renamed|todo|next|should|must|need)/i;

/**
 * Offline summariser: keeps the lines that carry decisions, changes and errors, in order, up to
 * the output limit. Deterministic; used when no model is available and by `strata replay`.
 */
export class ExtractiveSummarizer implements Summarizer {
  constructor(private readonly tokenizer: Tokenizer) {}

  async summarize(input: SummarizeRequest): Promise<SummarizeResult> {
    const count = (s: string) => this.tokenizer.count(s);
    const text = input.request.messages.flatMap((m) => m.content.map(blockText)).join('\n');
    const lines = text.split('\n').map((l) => l.trim());
    const picked: string[] = [];
    let used = 0;
    const seen = new Set<string>();
    for (const line of lines) {
      const isHeading = /^e\d+:/.test(line);
      if (!isHeading && !SIGNAL.test(line)) continue; // blank lines drop out here too
      const clipped = line.length > 240 ? `${line.slice(0, 237)}...` : line;
      if (seen.has(clipped)) continue;
      const cost = count(clipped) + 1;
      if (used + cost > input.maxOutputTokens) break;
      seen.add(clipped);
      picked.push(clipped);
      used += cost;
    }
    // An exchange heading with nothing picked under it says nothing.
    const kept = picked.filter((line, i) => !/^e\d+:$/.test(line) || (picked[i + 1] !== undefined && !/^e\d+:$/.test(picked[i + 1]!)));
    const summary = kept.join('\n');
    return { text: summary, inputTokens: requestTokens(input.request, count), outputTokens: count(summary) };
  }
}
