import { Fragment } from 'react';

/** A manifest description: `code` and **bold** rendered, everything else as text (never as HTML). */
export function SettingDescription({ text, id }: { text: string; id: string }) {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/);
  return (
    <p className="setting-description" id={id}>
      {parts.map((part, i) => {
        if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={i}>{part.slice(1, -1)}</code>;
        if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <strong key={i}>{part.slice(2, -2)}</strong>;
        return <Fragment key={i}>{part}</Fragment>;
      })}
    </p>
  );
}
