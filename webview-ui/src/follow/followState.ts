/**
 * Stick-to-bottom for the chat flow, as a pure state machine: the view follows new content while
 * the user is at the bottom; once they scroll up it stays put and offers "Jump to latest".
 * `useFollow` feeds it the scroll container's events; nothing here touches the DOM.
 */

/** How far above the very bottom still counts as "at the bottom", CSS pixels (sub-pixel rounding, a last line half shown). */
export const BOTTOM_SLACK_PX = 24;

/** A scroll container's geometry, CSS pixels (the DOM's scrollTop, scrollHeight, clientHeight). */
export interface ScrollMetrics {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export interface FollowState {
  /** The view sticks to the bottom: new content scrolls it down. */
  following: boolean;
  /** Content arrived below the fold while the user was scrolled up. */
  unseen: boolean;
}

export const initialFollowState: FollowState = { following: true, unseen: false };

export type FollowEvent =
  /** The container scrolled (by the user, or by the view itself) to `metrics`. */
  | { type: 'scrolled'; metrics: ScrollMetrics }
  /** Rows were added or the last one grew (a streamed delta). */
  | { type: 'contentChanged' }
  /** The user pressed Jump to latest. */
  | { type: 'jumped' };

export function isAtBottom(m: ScrollMetrics): boolean {
  return m.scrollHeight - m.scrollTop - m.clientHeight <= BOTTOM_SLACK_PX;
}

/** The next state. After `contentChanged` or `jumped`, the caller scrolls to the bottom when `following` is true. */
export function nextFollowState(state: FollowState, event: FollowEvent): FollowState {
  switch (event.type) {
    case 'scrolled': {
      const following = isAtBottom(event.metrics);
      return following ? { following: true, unseen: false } : { following: false, unseen: state.unseen };
    }
    case 'contentChanged':
      return state.following ? state : { following: false, unseen: true };
    case 'jumped':
      return { following: true, unseen: false };
  }
}
