import { fmt, type ContextView } from '../context/contextView';

/**
 * The prompt as one stacked bar by layer against the budget, its legend (used / cap per layer),
 * and the window line (window, output reserve, auto-condense point). Every figure comes from
 * `view` (contextView.ts).
 */
export function LayerView({ view }: { view: ContextView }) {
  const f = view.figures;
  return (
    <div className="layer-view" data-testid="layer-view">
      <p className="prompt-line" data-testid="prompt-line">
        {view.used === undefined ? (
          <>No prompt sent yet · budget {fmt(f.budget)} tokens</>
        ) : (
          <>
            Prompt <strong>{fmt(view.used)}</strong> of {fmt(f.budget)} budget ({view.budgetPercent}%)
            {view.heldTo !== undefined && <span title="Until the first answer calibrates Strata's token count for this model, a request is held 5% under the budget."> · held to {fmt(view.heldTo)}</span>}
          </>
        )}
      </p>
      <div className="layer-bar" role="img" aria-label={barLabel(view)} data-testid="layer-bar">
        {view.layers
          .filter((l) => l.used > 0)
          .map((l) => (
            <div key={l.key} className={`layer layer-${l.key}`} style={{ width: `${l.width}%` }} title={`${l.label}: ${fmt(l.used)}${l.capText ? ` / ${l.capText}` : ''} tokens`} />
          ))}
        {view.budgetMark < 100 && <div className="budget-mark" style={{ left: `${view.budgetMark}%` }} title={`Budget ${fmt(f.budget)}`} />}
      </div>
      {/* Folded by default: open, seven rows would push the conversation down in a short sidebar. */}
      <details className="layer-details" data-testid="layer-details">
        <summary>Layers: tokens used / cap</summary>
        <ul className="layer-legend" data-testid="layer-legend">
          {view.layers.map((l) => (
            <li key={l.key} data-layer={l.key}>
              <span className={`swatch layer-${l.key}`} aria-hidden="true" />
              <span className="legend-name">{l.label}</span>
              <span className="legend-figures">
                {fmt(l.used)}
                {l.capText !== undefined && ` / ${l.capText}`}
              </span>
            </li>
          ))}
        </ul>
      </details>
      <p className="thresholds" data-testid="thresholds">
        <span className="codicon codicon-symbol-ruler" aria-hidden="true" /> Window {fmt(f.window)} · output reserve {fmt(f.reservedOutput)} ·{' '}
        <span data-testid="auto-condense">
          auto-condense at {f.condensePercent}%
        </span>{' '}
        ({fmt(f.condenseAt)})
        {f.source === 'settings' && <span className="figures-source" title="No session is open: these figures are the settings'. A window or reserve left unset follows the model once the first message opens the session."> · from settings</span>}
      </p>
    </div>
  );
}

function barLabel(view: ContextView): string {
  const parts = view.layers.filter((l) => l.used > 0).map((l) => `${l.label} ${fmt(l.used)}`);
  return `Prompt by layer, against a budget of ${fmt(view.figures.budget)} tokens: ${parts.join(', ') || 'empty'}`;
}
