import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blobRefs, decodeBody, encodeBody } from '../../src/adapters/storedBody';
import type { Message } from '../../src/shared/messages';

// The SQLite archive's body format on its own: what is written to `body_json`, and what reads back.

function blobTable() {
  const blobs = new Map<string, string>();
  const stored: string[] = [];
  return {
    blobs,
    stored,
    store: (text: string) => {
      const hash = createHash('sha256').update(text).digest('hex');
      blobs.set(hash, text);
      stored.push(text);
      return hash;
    },
    load: (hash: string) => {
      const text = blobs.get(hash);
      if (text === undefined) throw new Error(`no blob ${hash}`);
      return text;
    },
  };
}

const toolCall = (input: Record<string, unknown>): Message[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'store', input }] },
];

describe('stored body', () => {
  it('keeps strings of up to 256 characters inline and stores longer ones once, by hash', () => {
    const t = blobTable();
    const inline = 'x'.repeat(256);
    const long = 'y'.repeat(257);
    const full: Message[] = [
      { role: 'user', content: [{ type: 'text', text: inline }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: long }, { type: 'text', text: long }] },
    ];
    const body = encodeBody(full, t.store);
    expect(t.stored).toEqual([long, long]);
    expect(body).toContain(`"text":"${inline}"`);
    expect(body).not.toContain(long);
    const hash = createHash('sha256').update(long).digest('hex');
    expect(blobRefs(body)).toEqual([hash, hash]);
    expect(decodeBody(body, t.load)).toEqual(full);
  });

  it('stores a body with no long strings as plain JSON, with nothing handed to the blob table', () => {
    const t = blobTable();
    const full = toolCall({ path: 'a.ts', count: 3, flag: true, none: null, list: ['a', 1, null, { b: 'c' }] });
    const body = encodeBody(full, t.store);
    expect(body).toBe(JSON.stringify(full));
    expect(t.stored).toEqual([]);
    expect(decodeBody(body, t.load)).toEqual(full);
  });

  it("escapes a tool input's own $blob keys with one more $ in storage, whatever else the object holds", () => {
    const t = blobTable();
    const full = toolCall({ $blob: 'a'.repeat(64), n: 1, $$blob: 'two' });
    const body = encodeBody(full, t.store);
    expect(body).toContain(`"input":{"$$blob":"${'a'.repeat(64)}","n":1,"$$$blob":"two"}`);
    expect(blobRefs(body)).toEqual([]);
    expect(decodeBody(body, t.load)).toEqual(full);
  });

  it('leaves keys that only contain or start like $blob alone, both ways', () => {
    const t = blobTable();
    const full = toolCall({ x$blob: 1, x$$blob: 2, $$blobby: 3, $blobs: 4, blob: 5 });
    const body = encodeBody(full, t.store);
    expect(body).toBe(JSON.stringify(full));
    expect(decodeBody(body, t.load)).toEqual(full);
  });

  it('reads a body written before keys were escaped: a bare $blob beside other keys is not a reference and keeps its name', () => {
    const t = blobTable();
    const legacy = '[{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"store","input":{"$blob":"not-a-hash","note":"kept"}}]}]';
    expect(decodeBody(legacy, t.load)).toEqual(toolCall({ $blob: 'not-a-hash', note: 'kept' }));
  });

  it('treats only an object whose single key is $blob with a string value as a reference', () => {
    const t = blobTable();
    const hash = t.store('z'.repeat(300));
    const read = decodeBody(`[{"a":1},{"$blob":"${hash}"},{"$blob":7},null,"text",[null]]`, t.load);
    expect(read).toEqual([{ a: 1 }, 'z'.repeat(300), { $blob: 7 }, null, 'text', [null]]);
  });
});
