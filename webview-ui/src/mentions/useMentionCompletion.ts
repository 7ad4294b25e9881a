import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { applyMention, mentionAtCaret, type MentionItem } from '../../../src/shared/mentionItems';
import { onHostMessage } from '../hostMessages';
import { nextRequestId, postToHost } from '../vscodeApi';

/** Wait after the last keystroke before asking the host (ms): one query per pause, not per key. */
const DEBOUNCE_MS = 120;

/** The `@`-mention list of the input: its items, the highlighted one, and its keyboard handling. */
export interface MentionCompletion {
  open: boolean;
  items: MentionItem[];
  active: number;
  listId: string;
  optionId(index: number): string;
  /** Handles list keys (up/down/enter/tab/escape) while the list is open; true when it did. */
  onKeyDown(e: KeyboardEvent): boolean;
  /** Replaces the mention being typed by item `index`; the new text and caret. */
  pick(index: number): { text: string; caret: number } | undefined;
  setActive(index: number): void;
}

/**
 * Watches the text and caret of the input: an `@` word at the caret asks the host
 * (`mentions/query`, debounced) for matching files, folders and special mentions. Only the
 * answer to the latest query is shown; older ones are dropped by `requestId`.
 */
export function useMentionCompletion(text: string, caret: number, onPick: (text: string, caret: number) => void): MentionCompletion {
  const [items, setItems] = useState<MentionItem[]>([]);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | undefined>(undefined);
  const latest = useRef<string | undefined>(undefined);
  const at = mentionAtCaret(text, caret);
  const start = at?.start;
  const query = at?.query;

  useEffect(
    () =>
      onHostMessage((message) => {
        if (message.type !== 'mentions/results' || message.requestId !== latest.current) return;
        setItems(message.items);
        setActive(0);
      }),
    [],
  );

  useEffect(() => {
    if (start === undefined || query === undefined || dismissedAt === start) {
      latest.current = undefined;
      setItems([]);
      return;
    }
    // The query changed: an answer to the previous one is stale from now on, even before this one is sent.
    latest.current = undefined;
    const timer = setTimeout(() => {
      const requestId = nextRequestId();
      latest.current = requestId;
      postToHost({ type: 'mentions/query', requestId, query });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [start, query, dismissedAt]);

  // A new mention (another `@`) may open the list again after Escape closed it.
  useEffect(() => {
    if (dismissedAt !== undefined && start !== dismissedAt) setDismissedAt(undefined);
  }, [start, dismissedAt]);

  const open = at !== undefined && dismissedAt !== start && items.length > 0;
  const pick = (index: number) => {
    const item = items[index];
    if (!at || !item) return undefined;
    const next = applyMention(text, at.start, caret, item.insert);
    latest.current = undefined;
    setItems([]);
    onPick(next.text, next.caret);
    return next;
  };

  return {
    open,
    items,
    active,
    listId: 'mention-list',
    optionId: (index) => `mention-option-${index}`,
    setActive,
    pick,
    onKeyDown: (e) => {
      if (!open) return false;
      const move = (delta: number) => setActive((a) => (a + delta + items.length) % items.length);
      switch (e.key) {
        case 'ArrowDown':
          move(1);
          break;
        case 'ArrowUp':
          move(-1);
          break;
        case 'Enter':
        case 'Tab':
          if (e.shiftKey) return false;
          pick(active);
          break;
        case 'Escape':
          setDismissedAt(start);
          break;
        default:
          return false;
      }
      e.preventDefault();
      e.stopPropagation();
      return true;
    },
  };
}
