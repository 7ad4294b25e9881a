import type { ArchivedExchangeInfo, ArchivedSessionInfo } from '../engine/archiveBrowser';
import type { ArchiveSearchHit } from '../engine/ports';
import { oneLine } from '../shared/exchangeText';

/**
 * The archive tree as data: sessions, then their exchanges. No `vscode` import; the tree
 * provider turns each `TreeRow` into a TreeItem.
 */
export type ArchiveNode = { kind: 'session'; session: ArchivedSessionInfo } | { kind: 'exchange'; exchange: ArchivedExchangeInfo };

/** What a tree row shows. `contextValue` selects the context-menu commands (package.json `when`). */
export interface TreeRow {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  contextValue: 'session' | 'exchange';
  collapsible: boolean;
}

/** Virtual documents of exchanges use this scheme: `strata-archive:/<session id>/e<seq>.md`. */
export const ARCHIVE_SCHEME = 'strata-archive';

const UNTITLED = '(no user message)';

export function sessionNodes(sessions: ArchivedSessionInfo[]): ArchiveNode[] {
  return sessions.map((session) => ({ kind: 'session', session }));
}

export function exchangeNodes(exchanges: ArchivedExchangeInfo[]): ArchiveNode[] {
  return exchanges.map((exchange) => ({ kind: 'exchange', exchange }));
}

export function treeRow(node: ArchiveNode): TreeRow {
  if (node.kind === 'session') {
    const s = node.session;
    return {
      id: `s:${s.id}`,
      label: s.title || UNTITLED,
      description: `${formatTime(s.lastAt)} · ${plural(s.exchanges, 'exchange')}`,
      tooltip: `${s.title || UNTITLED}\n\nSession ${s.id}\n${formatTime(s.firstAt)} – ${formatTime(s.lastAt)}, ${plural(s.exchanges, 'exchange')}`,
      contextValue: 'session',
      collapsible: true,
    };
  }
  const e = node.exchange;
  return {
    id: `e:${e.sessionId}/${e.seq}`,
    label: e.header,
    // The time of day only: the session's row has the date.
    description: formatTime(e.createdAt).slice(11),
    tooltip: e.summary,
    contextValue: 'exchange',
    collapsible: false,
  };
}

/** One QuickPick row of a session: title, then date and exchange count. */
export function sessionPickRow(s: ArchivedSessionInfo): { label: string; description: string; detail: string } {
  return { label: oneLine(s.title || UNTITLED, 80), description: `${formatTime(s.lastAt)} · ${plural(s.exchanges, 'exchange')}`, detail: s.id };
}

/** A session named in a message or dialog: its title (else its id) on one line, at most 60 characters. */
export function sessionLabel(s: Pick<ArchivedSessionInfo, 'id' | 'title'>): string {
  return oneLine(s.title || s.id, 60);
}

/** The virtual document path of an exchange (ids are URI-encoded, so any id round-trips). */
export function exchangeDocumentPath(sessionId: string, seq: number): string {
  return `/${encodeURIComponent(sessionId)}/e${seq}.md`;
}

/** The exchange a document path names, or undefined for a path this scheme never makes. */
export function parseExchangeDocumentPath(path: string): { sessionId: string; seq: number } | undefined {
  const match = /^\/([^/]+)\/e(\d{1,9})\.md$/.exec(path);
  if (!match) return undefined;
  try {
    return { sessionId: decodeURIComponent(match[1]!), seq: Number(match[2]) };
  } catch {
    return undefined;
  }
}

/** Local date and time to the minute, `YYYY-MM-DD HH:MM`. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One QuickPick row of a search hit: the exchange's header, its session's title, the FTS snippet. */
export function searchPickRow(hit: ArchiveSearchHit, titles: ReadonlyMap<string, string>): { label: string; description: string; detail: string } {
  return { label: hit.header, description: oneLine(titles.get(hit.sessionId) || hit.sessionId, 60), detail: oneLine(hit.snippet, 200) };
}

/** The session a command was invoked on: a tree node (context menu), an id (API), or none (palette). */
export function sessionIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'session') {
    const id = (arg as { session?: { id?: unknown } }).session?.id;
    return typeof id === 'string' ? id : undefined;
  }
  return undefined;
}
