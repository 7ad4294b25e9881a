import type { MentionItem } from '../../../src/shared/mentionItems';
import type { MentionCompletion } from '../mentions/useMentionCompletion';

const ICONS: Record<MentionItem['kind'], string> = { file: 'file', folder: 'folder', problems: 'warning', 'git-changes': 'git-compare', url: 'link' };

/** The `@`-mention list above the input (a listbox the input controls; the input keeps focus). */
export function MentionList({ completion }: { completion: MentionCompletion }) {
  if (!completion.open) return null;
  return (
    <ul className="mention-list" id={completion.listId} role="listbox" aria-label="Mentions" data-testid="mention-list">
      {completion.items.map((item, index) => (
        <li
          key={`${item.kind}:${item.label}`}
          id={completion.optionId(index)}
          role="option"
          aria-selected={index === completion.active}
          className={`mention-option${index === completion.active ? ' active' : ''}`}
          data-testid="mention-option"
          data-label={item.label}
          // mousedown, not click: the input must not lose focus (and the caret) first.
          onMouseDown={(e) => {
            e.preventDefault();
            completion.pick(index);
          }}
          onMouseEnter={() => completion.setActive(index)}
        >
          <span className={`codicon codicon-${ICONS[item.kind]}`} aria-hidden="true" />
          <span className="mention-label">{item.label}</span>
          <span className="mention-detail">{item.detail}</span>
        </li>
      ))}
    </ul>
  );
}
