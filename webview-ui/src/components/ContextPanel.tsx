import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import type { ContextFigures } from '../../../src/shared/webviewMessages';
import type { Usage } from '../chatState';
import { contextView, fmt } from '../context/contextView';
import type { Timeline } from '../context/timeline';
import { postToHost } from '../vscodeApi';
import { LayerView } from './LayerView';
import { SessionTimeline } from './SessionTimeline';

/** Band edges of the meter, percent of (window - reserved output); same as bandFor() in src/engine/usage.ts. */
const YELLOW_FROM = 61;
const RED_FROM = 86;

/** The window meter (green/yellow/red bands), the layer view, the session's timeline, Condense and Last request. */
export function ContextPanel(props: {
  usage: Usage | undefined;
  figures: ContextFigures | undefined;
  timeline: Timeline;
  sessionCost: number;
  storage: { ok: boolean; message: string; fallback?: boolean } | undefined;
  busy: boolean;
}) {
  const { usage, figures } = props;
  const percent = usage ? Math.min(100, usage.percent) : 0;
  const view = figures ? contextView(figures, usage, props.timeline) : undefined;
  return (
    <section className="context-panel" aria-label="Context window" data-testid="context-panel">
      <div className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Share of the usable context window used by the last prompt">
        <div className="band green" style={{ width: `${YELLOW_FROM}%` }} />
        <div className="band yellow" style={{ width: `${RED_FROM - YELLOW_FROM}%` }} />
        <div className="band red" style={{ width: `${100 - RED_FROM}%` }} />
        {view && <div className="meter-mark budget" style={{ left: `${view.marks.budgetAt}%` }} title={`Prompt budget ${fmt(view.figures.budget)}`} />}
        {view && <div className="meter-mark condense" style={{ left: `${view.marks.condenseAt}%` }} title={`Auto-condense at ${fmt(view.figures.condenseAt)}`} />}
        {usage && <div className={`needle ${usage.band}`} style={{ left: `${percent}%` }} />}
      </div>
      <p className="meter-label">
        {usage ? `${fmt(usage.used)} of ${fmt(usage.window - usage.reservedOutput)} usable tokens (${usage.percent}%)` : 'No prompt sent yet in this session.'}
      </p>
      {view && <LayerView view={view} />}
      {view && <SessionTimeline view={view} sessionCost={props.sessionCost} />}
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
