import { describe, expect, it } from 'vitest';
import { BOTTOM_SLACK_PX, initialFollowState, isAtBottom, nextFollowState, type FollowEvent, type FollowState } from '../../../webview-ui/src/follow/followState';
import { ANNOUNCE_MAX_CHARS, announcementFor } from '../../../webview-ui/src/follow/announcements';
import type { ChatItem } from '../../../webview-ui/src/chatState';

const VIEW = 400;
/** The container scrolled to `fromBottom` px above the bottom of `height` px of content. */
const metrics = (fromBottom: number, height = 2_000) => ({ scrollTop: height - VIEW - fromBottom, scrollHeight: height, clientHeight: VIEW });
const scrolled = (fromBottom: number, height = 2_000): FollowEvent => ({ type: 'scrolled', metrics: metrics(fromBottom, height) });
const run = (events: FollowEvent[], from: FollowState = initialFollowState) => events.reduce(nextFollowState, from);

describe('followState: stick to the bottom unless the user scrolled up', () => {
  it('follows from the start and keeps following while content streams in', () => {
    expect(initialFollowState.following).toBe(true);
    const s = run([{ type: 'contentChanged' }, scrolled(0, 2_100), { type: 'contentChanged' }, scrolled(0, 2_300)]);
    expect(s).toEqual({ following: true, unseen: false });
  });

  it('stops following once the user scrolls up past the slack, and marks new content as unseen', () => {
    const up = run([scrolled(BOTTOM_SLACK_PX + 1)]);
    expect(up).toEqual({ following: false, unseen: false });
    const more = run([{ type: 'contentChanged' }, { type: 'contentChanged' }], up);
    expect(more).toEqual({ following: false, unseen: true });
  });

  it('treats a position within the slack as the bottom (rounding, a half-shown last line)', () => {
    expect(isAtBottom(metrics(BOTTOM_SLACK_PX))).toBe(true);
    expect(isAtBottom(metrics(BOTTOM_SLACK_PX + 1))).toBe(false);
    expect(run([scrolled(BOTTOM_SLACK_PX)]).following).toBe(true);
  });

  it('follows again when the user scrolls back down or presses Jump to latest', () => {
    const away = run([scrolled(500), { type: 'contentChanged' }]);
    expect(run([scrolled(0)], away)).toEqual({ following: true, unseen: false });
    expect(run([{ type: 'jumped' }], away)).toEqual({ following: true, unseen: false });
  });

  it('content shorter than the view counts as at the bottom', () => {
    expect(isAtBottom({ scrollTop: 0, scrollHeight: 100, clientHeight: VIEW })).toBe(true);
  });
});

const user = (id: string): ChatItem => ({ kind: 'user', id, text: 'q' });
const answer = (id: string, text: string): ChatItem => ({ kind: 'assistant', id, text });
const approval = (id: string, state: 'pending' | 'approved' = 'pending'): ChatItem => ({ kind: 'approval', id, tool: 'edit_file', summary: 'edit hello.ts (1 block)', input: {}, state });

describe('announcementFor: what the live regions say', () => {
  it('reads a finished answer once, politely, when the turn ends (not while it streams)', () => {
    const streaming = [user('u1'), answer('a1', 'It exports hello.')];
    expect(announcementFor({ items: [user('u1')], running: 'r1' }, { items: streaming, running: 'r1' })).toEqual({});
    expect(announcementFor({ items: streaming, running: 'r1' }, { items: streaming, running: undefined })).toEqual({ polite: 'Strata answered: It exports hello.' });
  });

  it('says nothing when a turn ends without an answer after the last user message', () => {
    const items = [answer('a0', 'old'), user('u1')];
    expect(announcementFor({ items, running: 'r1' }, { items, running: undefined })).toEqual({});
  });

  it('reads a new pending approval assertively, once', () => {
    const before = [user('u1')];
    const after = [user('u1'), approval('p1')];
    expect(announcementFor({ items: before, running: 'r1' }, { items: after, running: 'r1' }).assertive).toBe('Approval needed: Strata wants to edit hello.ts (1 block). Approve or Reject.');
    expect(announcementFor({ items: after, running: 'r1' }, { items: after, running: 'r1' })).toEqual({});
    expect(announcementFor({ items: before, running: 'r1' }, { items: [user('u1'), approval('p2', 'approved')], running: 'r1' })).toEqual({});
  });

  it('clips a long answer', () => {
    const items = [user('u1'), answer('a1', 'word '.repeat(200))];
    const said = announcementFor({ items, running: 'r1' }, { items, running: undefined }).polite ?? '';
    expect(said.length).toBe('Strata answered: '.length + ANNOUNCE_MAX_CHARS);
  });
});
