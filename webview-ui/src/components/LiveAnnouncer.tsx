import { useEffect, useRef, useState } from 'react';
import type { ChatItem } from '../chatState';
import { announcementFor, type Announcement } from '../follow/announcements';

/**
 * Two visually hidden live regions: screen readers hear a finished answer (polite) and an
 * approval request (assertive, it blocks the turn). The streamed deltas themselves are not read.
 */
export function LiveAnnouncer(props: { items: readonly ChatItem[]; running: string | undefined }) {
  const prev = useRef({ items: props.items, running: props.running });
  const [said, setSaid] = useState<Announcement>({});
  const { items, running } = props;
  useEffect(() => {
    const next = announcementFor(prev.current, { items, running });
    prev.current = { items, running };
    if (next.polite || next.assertive) setSaid((old) => ({ polite: next.polite ?? old.polite, assertive: next.assertive ?? old.assertive }));
  }, [items, running]);
  return (
    <>
      <div className="sr-only" role="status" aria-live="polite" data-testid="live-polite">
        {said.polite}
      </div>
      <div className="sr-only" role="alert" aria-live="assertive" data-testid="live-assertive">
        {said.assertive}
      </div>
    </>
  );
}
