/**
 * Fixed text the engine puts in prompts. Everything here is constant per engine version, so it
 * sits in the cached prefix; change it only with a reason (every change rewrites all caches).
 */
export const PROTOCOL_INSTRUCTIONS = `## Strata context protocol
Older exchanges are not shown in full. <strata_context> lists every earlier exchange as a header line (id, time, topic, entities, outcome), summaries of the most recent ones, and a reference index (files, symbols, errors -> exchange ids). <strata_narrative> at its end is the story up to that point; the exchanges after it follow in full. Tool outputs that left the prompt are replaced by a one-line pointer; nothing is lost.
To see an archived exchange again, end your answer with <context_request>{"ids":["e12"],"format":"full"}</context_request> (format: header, summary, full or mixed); it arrives with the next message.
When a message says housekeeping is due, end your answer with <housekeeping>{"summaries":{"e12":"..."},"narrative":{"state":"...","nextSteps":["..."]}}</housekeeping>: one summary (at most 120 tokens: decisions, code changes, open questions) per id asked, and keep it lean.`;

/** Default system text for a headless run when the session recorded none. */
export const DEFAULT_AGENT_SYSTEM = 'You are a coding agent working in the user\'s repository with tools.';

export const DEFAULT_CONDENSE_PROMPT = `Condense the conversation below into one summary another engineer can continue from. Keep: the objective, decisions and their reasons, every file and symbol changed and how, commands run and their results, errors still open, and the next steps. Drop pleasantries and repeated tool output. Write plain text, at most the requested length.`;
