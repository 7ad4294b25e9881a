import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import type { EngineSettings } from '../../../src/shared/engineSettings';
import type { Usage } from '../chatState';
import { postToHost } from '../vscodeApi';

/** Band edges of the meter, percent of (window - reserved output); same as bandFor() in src/engine/usage.ts. */
const YELLOW_FROM = 61;
const RED_FROM = 86;

const LAYER_NAMES: Record<Usage['layers'][number]['layer'], string> = {
  system: 'System',
  L0: 'L0 narrative',
  L1: 'L1 working memory',
  L2: 'L2 headers',
  L3: 'L3 summaries',
  L4: 'L4 index',
  input: 'User input',
  retrieved: 'Retrieved',
};

/** The window meter (green/yellow/red bands), the stacked per-layer bar, the thresholds in force, Condense and Last request. */
export function ContextPanel(props: {
  usage: Usage | undefined;
  engine: EngineSettings | undefined;
  sessionCost: number;
  cacheHitRate: number | undefined;
  storage: { ok: boolean; message: string; fallback?: boolean } | undefined;
  busy: boolean;
}) {
  const { usage, engine } = props;
  const percent = usage ? Math.min(100, usage.percent) : 0;
  return (
    <section className="context-panel" aria-label="Context window" data-testid="context-panel">
      <div className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Share of the usable context window used by the last prompt">
        <div className="band green" style={{ width: `${YELLOW_FROM}%` }} />
        <div className="band yellow" style={{ width: `${RED_FROM - YELLOW_FROM}%` }} />
        <div className="band red" style={{ width: `${100 - RED_FROM}%` }} />
        {usage && <div className={`needle ${usage.band}`} style={{ left: `${percent}%` }} />}
      </div>
      <p className="meter-label">
        {usage
          ? `${usage.used.toLocaleString()} of ${(usage.window - usage.reservedOutput).toLocaleString()} tokens (${usage.percent}%)`
          : 'No prompt sent yet in this session.'}
        {props.sessionCost > 0 && ` · session $${props.sessionCost.toFixed(4)}`}
        {props.cacheHitRate !== undefined && <span data-testid="cache-hit"> · cache hit {Math.round(props.cacheHitRate * 100)}%</span>}
      </p>
      {usage && <LayerBar usage={usage} />}
      {engine && (
        <p className="thresholds" data-testid="thresholds">
          Budget {engine.promptBudgetTokens.toLocaleString()} tokens · window {engine.contextWindow.toLocaleString()} ·{' '}
          <span data-testid="auto-condense">auto-condense at {engine.autoCondensePercent}%</span>
        </p>
      )}
      <div className="panel-actions">
        <VscodeButton secondary icon="fold" data-testid="condense" disabled={props.busy} title="Condense the conversation now (Strata: Condense Now)" onClick={() => postToHost({ type: 'command/run', command: 'strata.condenseNow' })}>
          Condense
        </VscodeButton>
        <VscodeButton secondary icon="json" data-testid="last-request" title="Open the last request as sent (Strata: Show Last Request)" onClick={() => postToHost({ type: 'command/run', command: 'strata.showLastRequest' })}>
          Last request
        </VscodeButton>
      </div>
      {props.storage && !props.storage.ok && (
        <p className="storage-error" role="alert" data-testid="storage-error">
          <span className="codicon codicon-warning" aria-hidden="true" /> {props.storage.message}
        </p>
      )}
      {props.storage?.ok && props.storage.fallback && (
        <p className="storage-warning" role="status" data-testid="storage-fallback">
          <span className="codicon codicon-info" aria-hidden="true" /> {props.storage.message}
        </p>
      )}
    </section>
  );
}

function LayerBar({ usage }: { usage: Usage }) {
  const total = Math.max(1, usage.window - usage.reservedOutput);
  return (
    <div>
      <div className="layer-bar" aria-hidden="true">
        {usage.layers.map((l) => (
          <div key={l.layer} className={`layer layer-${l.layer}`} style={{ width: `${(100 * l.used) / total}%` }} title={`${LAYER_NAMES[l.layer]}: ${l.used} / ${l.budget} tokens`} />
        ))}
      </div>
      {/* Folded by default: in a narrow sidebar the legend would push the conversation out of view. */}
      <details className="layer-details">
        <summary>Layers (tokens used / budget)</summary>
        <ul className="layer-legend">
          {usage.layers.map((l) => (
            <li key={l.layer}>
              <span className={`swatch layer-${l.layer}`} aria-hidden="true" />
              {LAYER_NAMES[l.layer]}: {l.used.toLocaleString()} / {l.budget.toLocaleString()}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
