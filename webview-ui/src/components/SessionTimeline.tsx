import { MARK_WORDS, fmt, money, type ContextView } from '../context/contextView';

/** Height of the session's largest prompt, CSS pixels. */
const BAR_PX = 16;

const MARK_ICONS = { relayer: 'layers', condense: 'fold', slide: 'arrow-right', mask: 'eye-closed' } as const;

/**
 * The session's turns as small columns (prompt size against the budget), re-layering and
 * condense marked above them; the session's cost, the last turn's, and the cache hit rate.
 */
export function SessionTimeline({ view, sessionCost }: { view: ContextView; sessionCost: number }) {
  if (view.turns.length === 0) return null;
  return (
    <div className="session-timeline" data-testid="timeline">
      <div className="timeline-bars" role="list" aria-label="Turns of this session">
        {view.turns.map((t, i) => (
          <div key={i} className="timeline-turn" role="listitem" title={t.title} aria-label={t.title} data-marks={t.marks.join(' ')}>
            <div className="timeline-marks">
              {t.marks.map((m) => (
                <span key={m} className={`codicon codicon-${MARK_ICONS[m]} mark-${m}`} aria-hidden="true" title={MARK_WORDS[m]} />
              ))}
            </div>
            <div className="timeline-bar" style={{ height: `${Math.max(2, Math.round((t.height / 100) * BAR_PX))}px` }} />
          </div>
        ))}
      </div>
      <p className="session-figures" data-testid="session-figures">
        Session <span data-testid="session-cost">{money(sessionCost)}</span>
        {view.lastTurnCost !== undefined && <> · last turn {money(view.lastTurnCost)}</>}
        {view.sessionCacheHit !== undefined && (
          <span data-testid="cache-hit" title="Prompt tokens read from the cache / prompt tokens, this session">
            {' '}· cache hit {Math.round(view.sessionCacheHit * 100)}%
          </span>
        )}
        {' '}· {view.turns.length === 1 ? '1 turn' : `${view.turns.length} turns`} · peak {fmt(Math.max(...view.turns.map((t) => t.promptTokens)))}
      </p>
    </div>
  );
}
