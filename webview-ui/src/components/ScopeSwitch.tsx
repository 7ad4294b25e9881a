import type { SettingScope } from '../../../src/shared/settingsFields';

const SCOPES: ReadonlyArray<{ scope: SettingScope; label: string }> = [
  { scope: 'user', label: 'User' },
  { scope: 'workspace', label: 'Workspace' },
];

/** User / Workspace tabs, as in VS Code's Settings editor. Arrow keys move between them. */
export function ScopeSwitch(props: { scope: SettingScope; hasWorkspace: boolean; onChange(scope: SettingScope): void }) {
  const choose = (scope: SettingScope) => {
    if (scope === 'workspace' && !props.hasWorkspace) return;
    props.onChange(scope);
  };
  return (
    <div
      className="scope-switch"
      role="tablist"
      aria-label="Where settings are written"
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          e.preventDefault();
          choose(props.scope === 'user' ? 'workspace' : 'user');
        }
      }}
    >
      {SCOPES.map(({ scope, label }) => {
        const selected = props.scope === scope;
        const disabled = scope === 'workspace' && !props.hasWorkspace;
        return (
          <button
            key={scope}
            type="button"
            role="tab"
            className={`scope-tab${selected ? ' selected' : ''}`}
            data-testid={`scope-${scope}`}
            aria-selected={selected}
            aria-controls="settings-fields"
            tabIndex={selected ? 0 : -1}
            disabled={disabled}
            title={disabled ? 'Open a folder to have workspace settings' : undefined}
            onClick={() => choose(scope)}
          >
            {label}
          </button>
        );
      })}
    </div>
  );
}
