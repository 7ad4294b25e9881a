import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { initialFollowState, nextFollowState, type FollowEvent, type FollowState } from './followState';

/**
 * Keeps `scroller` at the bottom while `content` changes, unless the user scrolled up
 * (followState.ts decides). A change of `sent` (the user sent a message) follows again, as
 * pressing Jump to latest does. Returns the state (to show Jump to latest), the scroll handler to
 * put on the container, and the jump action.
 */
export function useFollow(scroller: RefObject<HTMLElement | null>, content: unknown, sent: unknown): { state: FollowState; onScroll(): void; jumpToLatest(): void } {
  const [state, setState] = useState(initialFollowState);
  // The latest state without waiting for a render: a layout effect must act on it at once.
  const current = useRef(state);
  const apply = useCallback((event: FollowEvent) => {
    const next = nextFollowState(current.current, event);
    current.current = next;
    setState((prev) => (prev.following === next.following && prev.unseen === next.unseen ? prev : next));
    return next;
  }, []);
  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [scroller]);

  // Declared first: on a send, the jump comes before the content change is handled.
  useLayoutEffect(() => {
    if (sent !== undefined) apply({ type: 'jumped' });
  }, [sent, apply]);

  // Before paint: a streamed delta never shows a frame where the last line is below the fold.
  useLayoutEffect(() => {
    if (apply({ type: 'contentChanged' }).following) toBottom();
  }, [content, apply, toBottom]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el) apply({ type: 'scrolled', metrics: { scrollTop: el.scrollTop, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight } });
  }, [scroller, apply]);
  const jumpToLatest = useCallback(() => {
    apply({ type: 'jumped' });
    toBottom(); // at once: a smooth scroll's frames would read as the user scrolling up
  }, [apply, toBottom]);
  return { state, onScroll, jumpToLatest };
}
