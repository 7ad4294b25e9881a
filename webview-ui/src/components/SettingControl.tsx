import VscodeCheckbox from '@vscode-elements/react-elements/dist/components/VscodeCheckbox.js';
import VscodeOption from '@vscode-elements/react-elements/dist/components/VscodeOption.js';
import VscodeSingleSelect from '@vscode-elements/react-elements/dist/components/VscodeSingleSelect.js';
import VscodeTextarea from '@vscode-elements/react-elements/dist/components/VscodeTextarea.js';
import VscodeTextfield from '@vscode-elements/react-elements/dist/components/VscodeTextfield.js';
import { useEffect, useState } from 'react';
import type { SettingField, SettingValue } from '../../../src/shared/settingsFields';

interface Props {
  field: SettingField;
  value: SettingValue;
  id: string;
  describedBy: string;
  invalid: boolean;
  /** The user finished an edit (checkbox or select changed, text field left or Enter pressed). */
  onCommit(raw: unknown): void;
  /** The user is typing: a shown error goes away until the next commit. */
  onEdit(): void;
}

/** The control for a field's type: checkbox, number (with min/max), select for enums, text. */
export function SettingControl({ field, value, id, describedBy, invalid, onCommit, onEdit }: Props) {
  const [draft, setDraft] = useState(String(value));
  // A new value from the host (written here, in settings.json, or by a scope switch) replaces the draft.
  useEffect(() => setDraft(String(value)), [value]);
  const aria = { id, 'aria-describedby': describedBy, 'aria-invalid': invalid };

  switch (field.kind) {
    case 'boolean':
      return <VscodeCheckbox {...aria} checked={value === true} label="On" onChange={(e) => onCommit((e.target as HTMLInputElement).checked)} />;
    case 'enum':
      return (
        <VscodeSingleSelect {...aria} value={String(value)} onChange={(e) => onCommit((e.target as HTMLSelectElement).value)}>
          {field.options.map((o) => (
            <VscodeOption key={o} value={o}>
              {o}
            </VscodeOption>
          ))}
        </VscodeSingleSelect>
      );
    case 'string':
      if (field.multiline) {
        return (
          <VscodeTextarea
            {...aria}
            rows={3}
            resize="vertical"
            value={draft}
            placeholder={field.default === '' ? '(empty: built-in)' : field.default}
            onInput={(e) => {
              setDraft((e.target as HTMLTextAreaElement).value);
              onEdit();
            }}
            onChange={(e) => onCommit((e.target as HTMLTextAreaElement).value)}
          />
        );
      }
      return <VscodeTextfield {...aria} value={draft} placeholder={field.default === '' ? '(empty)' : field.default} onInput={(e) => { setDraft((e.target as HTMLInputElement).value); onEdit(); }} onChange={(e) => onCommit((e.target as HTMLInputElement).value)} />;
    case 'integer':
    case 'number':
      return (
        <VscodeTextfield
          {...aria}
          type="number"
          min={field.minimum}
          max={field.maximum}
          step={field.kind === 'integer' ? 1 : undefined}
          value={draft}
          title={`${field.minimum.toLocaleString('en-US')} to ${field.maximum.toLocaleString('en-US')}, default ${field.default.toLocaleString('en-US')}`}
          onInput={(e) => {
            setDraft((e.target as HTMLInputElement).value);
            onEdit();
          }}
          onChange={(e) => onCommit((e.target as HTMLInputElement).value)}
        />
      );
  }
}
