import { useCallback, useEffect, useReducer } from 'react';
import { checkSettingValue, type SettingField, type SettingScope, type SettingValue } from '../../../src/shared/settingsFields';
import { onHostMessage } from '../hostMessages';
import { nextRequestId, postToHost } from '../vscodeApi';
import { initialSettingsState, settingsReducer, type SettingsState } from './settingsState';

/** What the settings panel needs: its state and the actions of its controls. */
export interface SettingsPanelApi {
  state: SettingsState;
  open(): void;
  close(): void;
  setScope(scope: SettingScope): void;
  /** Checks `raw` against the field's range and writes it at the current scope, or shows why not. */
  write(field: SettingField, raw: unknown): void;
  /** Removes the value from the current scope (the inherited value or the default applies again). */
  reset(field: SettingField): void;
  edited(key: string): void;
}

/** The settings panel's state, fed by `settings/*` host messages. */
export function useSettingsPanel(): SettingsPanelApi {
  const [state, dispatch] = useReducer(settingsReducer, initialSettingsState);

  useEffect(
    () =>
      onHostMessage((message) => {
        if (message.type === 'settings/show' || message.type === 'settings/snapshot' || message.type === 'settings/updated') dispatch(message);
      }),
    [],
  );
  // Fresh values each time the panel opens (external edits while it was closed).
  useEffect(() => {
    if (state.open) postToHost({ type: 'settings/get', requestId: nextRequestId() });
  }, [state.open]);

  const send = useCallback(
    (key: string, value: SettingValue | null) => {
      const requestId = nextRequestId();
      dispatch({ type: 'local/settingSent', requestId, key });
      postToHost({ type: 'settings/update', requestId, key, scope: state.scope, value });
    },
    [state.scope],
  );

  return {
    state,
    open: useCallback(() => dispatch({ type: 'settings/show' }), []),
    close: useCallback(() => dispatch({ type: 'local/settingsClosed' }), []),
    setScope: useCallback((scope: SettingScope) => dispatch({ type: 'local/scope', scope }), []),
    write: (field, raw) => {
      const checked = checkSettingValue(field, raw);
      if (!checked.ok) dispatch({ type: 'local/settingRefused', key: field.key, message: checked.message });
      else send(field.key, checked.value);
    },
    reset: (field) => send(field.key, null),
    edited: useCallback((key: string) => dispatch({ type: 'local/settingEdited', key }), []),
  };
}
