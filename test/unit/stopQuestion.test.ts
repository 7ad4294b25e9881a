import { describe, expect, it } from 'vitest';
import { stopQuestion } from '../../src/extension/stopQuestion';

/** The modal asked before a session switch stops what runs: its title, its text and the button that stops. */
describe('stopQuestion', () => {
  it('a running turn: its work stays archived; the button names the switch', () => {
    expect(stopQuestion('turn', { kind: 'open', label: 'Fix the parser' })).toEqual({
      message: 'A turn is running in the chat. Stop it and open "Fix the parser"?',
      detail: 'Stopping keeps what the turn has done: its exchanges and the answer so far stay archived in the current session, which you can open again. Cancel lets the turn go on.',
      confirm: 'Stop and open',
    });
    expect(stopQuestion('turn', { kind: 'new' })).toMatchObject({ message: 'A turn is running in the chat. Stop it and start a new session?', confirm: 'Stop and start new' });
  });

  it('Condense Now: the session stays as it was before the condense', () => {
    expect(stopQuestion('condense', { kind: 'open', label: 'Old' })).toEqual({
      message: 'Condense Now is running in the chat. Stop it and open "Old"?',
      detail: 'Stopping leaves the current session as it was before the condense; nothing archived is lost. Cancel lets the condense finish.',
      confirm: 'Stop and open',
    });
  });
});
