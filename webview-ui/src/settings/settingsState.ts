import type { SettingGroup, SettingScope } from '../../../src/shared/settingsFields';
import type { HostToWebview } from '../../../src/shared/webviewMessages';

/** A write in flight or its outcome, per setting key. */
export type FieldNote = { kind: 'saving' } | { kind: 'error'; message: string };

/** What the settings panel shows; changed only by `settingsReducer`. */
export interface SettingsState {
  open: boolean;
  groups: SettingGroup[] | undefined;
  hasWorkspace: boolean;
  scope: SettingScope;
  /** Update request id -> the key it writes (to match `settings/updated`). */
  inFlight: Record<string, string>;
  notes: Record<string, FieldNote>;
}

export const initialSettingsState: SettingsState = { open: false, groups: undefined, hasWorkspace: false, scope: 'user', inFlight: {}, notes: {} };

export type SettingsAction =
  | Extract<HostToWebview, { type: 'settings/show' | 'settings/snapshot' | 'settings/updated' }>
  | { type: 'local/settingsClosed' }
  | { type: 'local/scope'; scope: SettingScope }
  /** The panel sent `settings/update` `requestId` for `key`. */
  | { type: 'local/settingSent'; requestId: string; key: string }
  /** The panel refused a value itself (out of range, wrong type); `message` shows the range. */
  | { type: 'local/settingRefused'; key: string; message: string }
  | { type: 'local/settingEdited'; key: string };

/** Applies one host message or panel action. Pure. */
export function settingsReducer(state: SettingsState, action: SettingsAction): SettingsState {
  switch (action.type) {
    case 'settings/show':
      return { ...state, open: true };
    case 'local/settingsClosed':
      return { ...state, open: false, notes: {} };
    case 'settings/snapshot': {
      // A workspace scope with no folder open cannot be written: fall back to User.
      const scope = action.hasWorkspace ? state.scope : 'user';
      return { ...state, groups: action.groups, hasWorkspace: action.hasWorkspace, scope };
    }
    case 'local/scope':
      return { ...state, scope: action.scope, notes: {} };
    case 'local/settingSent':
      return { ...state, inFlight: { ...state.inFlight, [action.requestId]: action.key }, notes: { ...state.notes, [action.key]: { kind: 'saving' } } };
    case 'local/settingRefused':
      return { ...state, notes: { ...state.notes, [action.key]: { kind: 'error', message: action.message } } };
    case 'local/settingEdited':
      return withoutNote(state, action.key);
    case 'settings/updated': {
      if (!(action.requestId in state.inFlight)) return state; // an answer to a panel that was reloaded
      const { [action.requestId]: _done, ...inFlight } = state.inFlight;
      const next = { ...state, inFlight };
      return action.ok ? withoutNote(next, action.key) : { ...next, notes: { ...next.notes, [action.key]: { kind: 'error', message: action.message ?? 'The setting could not be written.' } } };
    }
  }
}

function withoutNote(state: SettingsState, key: string): SettingsState {
  if (!(key in state.notes)) return state;
  const { [key]: _gone, ...notes } = state.notes;
  return { ...state, notes };
}
