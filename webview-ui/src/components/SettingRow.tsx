import { settingTitle, valueAtScope, type SettingField } from '../../../src/shared/settingsFields';
import type { SettingsPanelApi } from '../settings/useSettingsPanel';
import { SettingControl } from './SettingControl';
import { SettingDescription } from './SettingDescription';

/** One setting: title, description (with its unit), the control, and what happened to the last write. */
export function SettingRow({ field, api }: { field: SettingField; api: SettingsPanelApi }) {
  const { scope, notes } = api.state;
  const shown = valueAtScope(field, scope);
  const note = notes[field.key];
  const id = `setting-${field.key.replace(/\./g, '-')}`;
  return (
    <div className={`setting-row${shown.setHere ? ' modified' : ''}`} data-testid={`setting-${field.key}`} data-modified={shown.setHere}>
      <div className="setting-title">
        <label htmlFor={`${id}-control`}>{settingTitle(field.key)}</label>
        {shown.setHere && (
          <button type="button" className="icon-button" data-testid="setting-reset" title={`Remove from ${scope} settings (use the ${scope === 'workspace' ? 'user value or ' : ''}default)`} aria-label={`Reset ${settingTitle(field.key)} in ${scope} settings`} onClick={() => api.reset(field)}>
            <span className="codicon codicon-discard" aria-hidden="true" />
          </button>
        )}
      </div>
      <SettingDescription text={field.description} id={`${id}-description`} />
      <SettingControl field={field} value={shown.value} id={`${id}-control`} describedBy={`${id}-description${note?.kind === 'error' ? ` ${id}-error` : ''}`} invalid={note?.kind === 'error'} onCommit={(raw) => api.write(field, raw)} onEdit={() => api.edited(field.key)} />
      {(field.kind === 'integer' || field.kind === 'number') && (
        <p className="setting-range">
          {field.minimum.toLocaleString('en-US')} to {field.maximum.toLocaleString('en-US')} · default {field.default.toLocaleString('en-US')}
        </p>
      )}
      {note?.kind === 'error' && (
        <p className="setting-error" id={`${id}-error`} role="alert" data-testid="setting-error">
          <span className="codicon codicon-error" aria-hidden="true" /> {note.message}
        </p>
      )}
      {note?.kind === 'saving' && <p className="setting-saving">Saving…</p>}
      <OtherScope field={field} scope={scope} />
    </div>
  );
}

/** Like the Settings editor's "Also modified in": the value the other scope holds, if any. */
function OtherScope({ field, scope }: { field: SettingField; scope: 'user' | 'workspace' }) {
  const other = scope === 'user' ? field.workspace : field.user;
  if (other === undefined) return null;
  const text = scope === 'user' ? `Overridden in Workspace settings: ${String(other)}` : `User settings: ${String(other)}`;
  return (
    <p className="setting-other-scope" data-testid="setting-other-scope">
      {text}
    </p>
  );
}
