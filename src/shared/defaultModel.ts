/**
 * The model Strata uses unless told otherwise (CLI and extension alike): the newest Sonnet in the
 * SDK's `Model` list (@anthropic-ai/sdk 1.12.0), not among the SDK's `DEPRECATED_MODELS` (which
 * name Sonnet 4.5), and the model the SDK's own examples use.
 */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
