import type { Message } from '../shared/messages';

// How an exchange's messages are stored in the SQLite archive's `body_json`: JSON in which every
// string longer than BLOB_FROM_CHARS is replaced by a reference `{"$blob": <SHA-256>}` to the
// `blobs` table, so a file read twice is stored once.

/** Strings longer than this are stored once in `blobs`, by SHA-256, and referenced from the body. */
const BLOB_FROM_CHARS = 256;

/** A blob reference as it appears in `body_json` (a string value's own quotes would be escaped). */
const BLOB_REF = /"\$blob":"([0-9a-f]{64})"/g;

/** `full` as stored: long strings handed to `storeBlob` (which returns their hash) and referenced. */
export function encodeBody(full: Message[], storeBlob: (text: string) => string): string {
  return JSON.stringify(full, (_key, value: unknown) => (typeof value === 'string' && value.length > BLOB_FROM_CHARS ? { $blob: storeBlob(value) } : renameBlobKeys(value, 1)));
}

/** The stored body read back, each reference replaced by `loadBlob(hash)`; unchecked (parse it with archivedBodySchema). */
export function decodeBody(bodyJson: string, loadBlob: (hash: string) => string): unknown {
  return JSON.parse(bodyJson, (_key, value: unknown) => (isBlobRef(value) ? loadBlob(value.$blob) : renameBlobKeys(value, -1)));
}

/** The hashes a stored body references. */
export function blobRefs(bodyJson: string): string[] {
  return [...bodyJson.matchAll(BLOB_REF)].map((m) => m[1]!);
}

/**
 * A message's own key named `$blob` (a tool input can hold anything) would read back as a
 * reference: in storage every key `$blob`, `$$blob`, ... gets one more `$` (`shift` 1), taken off
 * again on reading (-1). References are written after this, so they keep the bare name.
 */
function renameBlobKeys(value: unknown, shift: 1 | -1): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keyed = shift === 1 ? /^\$+blob$/ : /^\$\$+blob$/;
  const keys = Object.keys(value);
  if (!keys.some((k) => keyed.test(k))) return value;
  const renamed = (k: string) => (!keyed.test(k) ? k : shift === 1 ? `$${k}` : k.slice(1));
  return Object.fromEntries(keys.map((k) => [renamed(k), (value as Record<string, unknown>)[k]]));
}

function isBlobRef(value: unknown): value is { $blob: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $blob?: unknown }).$blob === 'string' && Object.keys(value).length === 1;
}
