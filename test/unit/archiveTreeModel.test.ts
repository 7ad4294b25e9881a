import { describe, expect, it } from 'vitest';
import {
  exchangeDocumentPath,
  exchangeNodes,
  formatTime,
  parseExchangeDocumentPath,
  searchPickRow,
  sessionIdOf,
  sessionNodes,
  sessionPickRow,
  treeRow,
} from '../../src/extension/archiveTreeModel';

const at = (h: number, m: number) => new Date(2026, 10, 3, h, m).getTime(); // local time, as the tree shows it
const session = { id: 's-2026-11-03-ab12cd34', title: 'Why does the build fail?', firstAt: at(9, 5), lastAt: at(10, 40), exchanges: 3 };
const exchange = { sessionId: session.id, seq: 2, createdAt: at(9, 7), header: 'e2 09:07 Read build.ts → ok', summary: 'e2: read build.ts; the target is es2019.' };

describe('archive tree model', () => {
  it('shows a session by its title, last activity and exchange count, collapsible, with the session context menu', () => {
    const [node] = sessionNodes([session]);
    expect(treeRow(node!)).toEqual({
      id: `s:${session.id}`,
      label: 'Why does the build fail?',
      description: '2026-11-03 10:40 · 3 exchanges',
      tooltip: `Why does the build fail?\n\nSession ${session.id}\n2026-11-03 09:05 – 2026-11-03 10:40, 3 exchanges`,
      contextValue: 'session',
      collapsible: true,
    });
    expect(treeRow({ kind: 'session', session: { ...session, title: '', exchanges: 1 } })).toMatchObject({ label: '(no user message)', description: '2026-11-03 10:40 · 1 exchange' });
  });

  it('shows an exchange by its header, its summary as tooltip and its time of day as description', () => {
    const [node] = exchangeNodes([exchange]);
    expect(treeRow(node!)).toEqual({ id: `e:${session.id}/2`, label: exchange.header, description: '09:07', tooltip: exchange.summary, contextValue: 'exchange', collapsible: false });
  });

  it('round-trips any session id through the exchange document path, and refuses other paths', () => {
    for (const id of [session.id, 'with/slash and space', 'ünï#?%']) {
      expect(parseExchangeDocumentPath(exchangeDocumentPath(id, 17))).toEqual({ sessionId: id, seq: 17 });
    }
    expect(exchangeDocumentPath('a/b', 3)).toBe('/a%2Fb/e3.md');
    expect(parseExchangeDocumentPath('/s/e3.json')).toBeUndefined();
    expect(parseExchangeDocumentPath('/s/e3.md.bak')).toBeUndefined();
    expect(parseExchangeDocumentPath('/s/x/e3.md')).toBeUndefined();
    expect(parseExchangeDocumentPath('/%E0%A4%A/e3.md')).toBeUndefined(); // malformed escape
  });

  it('builds QuickPick rows for sessions and search hits', () => {
    expect(sessionPickRow(session)).toEqual({ label: session.title, description: '2026-11-03 10:40 · 3 exchanges', detail: session.id });
    const titles = new Map([[session.id, session.title]]);
    expect(searchPickRow({ sessionId: session.id, seq: 2, header: exchange.header, snippet: 'the [target]\nis es2019' }, titles)).toEqual({
      label: exchange.header,
      description: session.title,
      detail: 'the [target] is es2019',
    });
    expect(searchPickRow({ sessionId: 'gone', seq: 1, header: 'h', snippet: 's' }, titles).description).toBe('gone');
  });

  it('reads the session a command was invoked on: a tree node, an id, or none', () => {
    expect(sessionIdOf(sessionNodes([session])[0])).toBe(session.id);
    expect(sessionIdOf('s-1')).toBe('s-1');
    expect(sessionIdOf(undefined)).toBeUndefined();
    expect(sessionIdOf(exchangeNodes([exchange])[0])).toBeUndefined();
    expect(sessionIdOf({ kind: 'session', session: { id: 42 } })).toBeUndefined();
    expect(sessionIdOf('')).toBeUndefined();
    expect(sessionIdOf(null)).toBeUndefined();
    expect(sessionIdOf({ kind: 'session' })).toBeUndefined();
    expect(sessionIdOf({ kind: 'exchange', session: { id: 's-1' } })).toBeUndefined();
    expect(exchangeNodes([exchange])).toEqual([{ kind: 'exchange', exchange }]);
  });

  it('formats times to the minute in local time, zero-padded', () => {
    expect(formatTime(new Date(2027, 0, 2, 3, 4, 59).getTime())).toBe('2027-01-02 03:04');
  });
});
