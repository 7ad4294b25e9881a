import { parseHostToWebview, type HostToWebview } from '../../src/shared/webviewMessages';

type Listener = (message: HostToWebview) => void;
const listeners = new Set<Listener>();

/** One `message` listener for the whole app: each host message is validated once, then fanned out. */
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostToWebview(event.data);
  if (!parsed.ok) {
    console.warn(`Strata webview: ${parsed.reason}`);
    return;
  }
  for (const listener of listeners) listener(parsed.message);
});

/** Calls `listener` with every valid host message until the returned function is called. */
export function onHostMessage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
