import type { SettingGroup } from '../../../src/shared/settingsFields';
import type { SettingsPanelApi } from '../settings/useSettingsPanel';
import { SettingRow } from './SettingRow';

/** One titled group ("Strata: Condensing"), folded open. */
export function SettingsGroup({ group, api }: { group: SettingGroup; api: SettingsPanelApi }) {
  return (
    <details className="settings-group" open data-testid={`settings-group-${group.id}`}>
      <summary>{group.title.replace(/^Strata: /, '')}</summary>
      {group.fields.map((field) => (
        <SettingRow key={field.key} field={field} api={api} />
      ))}
    </details>
  );
}
