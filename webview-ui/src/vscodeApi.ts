import type { WebviewToHost } from '../../src/shared/webviewMessages';

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** VS Code allows one `acquireVsCodeApi()` call per webview; this module makes it once. */
const api: VsCodeApi = acquireVsCodeApi();

/** Sends a typed message to the extension host (which validates it again). */
export function postToHost(message: WebviewToHost): void {
  api.postMessage(message);
}

let counter = 0;
/** A request id unique within this webview's life: the host echoes it in replies. */
export function nextRequestId(): string {
  counter += 1;
  return `r${Date.now().toString(36)}-${counter}`;
}
