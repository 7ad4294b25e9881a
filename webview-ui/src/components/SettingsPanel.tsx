import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import type { SettingsPanelApi } from '../settings/useSettingsPanel';
import { postToHost } from '../vscodeApi';
import { ScopeSwitch } from './ScopeSwitch';
import { SettingsGroup } from './SettingsGroup';

/**
 * Every Strata setting, grouped as in the Settings editor, edited at User or Workspace scope.
 * Escape goes back to the chat.
 * Values are read and written by the host through VS Code's configuration API.
 */
export function SettingsPanel({ api }: { api: SettingsPanelApi }) {
  const { state } = api;
  return (
    <section
      className="settings-panel"
      data-testid="settings-panel"
      aria-labelledby="settings-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape') api.close();
      }}
    >
      <div className="settings-top">
        <header className="settings-header">
          <h2 id="settings-title">
            <span className="codicon codicon-settings-gear" aria-hidden="true" /> Strata settings
          </h2>
          <VscodeButton secondary icon="arrow-left" data-testid="settings-close" onClick={api.close} title="Back to the chat">
            Chat
          </VscodeButton>
        </header>
        <ScopeSwitch scope={state.scope} hasWorkspace={state.hasWorkspace} onChange={api.setScope} />
        <p className="settings-hint">
          {state.scope === 'user' ? 'User settings apply in every workspace and follow Settings Sync.' : 'Workspace settings override User settings in this folder only.'}{' '}
          <a
            href="#"
            data-testid="open-settings-editor"
            onClick={(e) => {
              e.preventDefault();
              postToHost({ type: 'command/run', command: 'strata.openSettingsEditor' });
            }}
          >
            Open in Settings editor
          </a>
        </p>
      </div>
      <div role="tabpanel" id="settings-fields" aria-label={`${state.scope === 'user' ? 'User' : 'Workspace'} settings`}>
        {state.groups === undefined ? (
          <p className="settings-hint">Loading settings…</p>
        ) : (
          state.groups.map((group) => <SettingsGroup key={group.id} group={group} api={api} />)
        )}
      </div>
    </section>
  );
}
