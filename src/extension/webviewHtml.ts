/** URIs of the built webview assets, already converted by `webview.asWebviewUri`. */
export interface WebviewAssets {
  script: string;
  style: string;
  codicons: string;
  /** `webview.cspSource`: the origin local resources are served from. */
  cspSource: string;
}

/**
 * The chat view's HTML: a strict CSP (no inline script or eval, scripts only with the nonce,
 * styles and fonts only from the extension's own files) and the fixed-name bundles from
 * dist/webview/. `nonce` must be fresh per render (see `makeNonce`).
 */
export function webviewHtml(assets: WebviewAssets, nonce: string): string {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // Lit (vscode-elements) adopts constructed stylesheets and React sets styles through the
    // CSSOM: neither needs 'unsafe-inline'.
    `style-src ${assets.cspSource}`,
    `font-src ${assets.cspSource}`,
    `img-src ${assets.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${assets.codicons}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${assets.style}">
<title>Strata</title>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${assets.script}"></script>
</body>
</html>`;
}

/** 32 random alphanumerics for the CSP nonce (`random` returns an integer in [0, 62)). */
export function makeNonce(random: (bound: number) => number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < 32; i++) out += chars[random(chars.length)];
  return out;
}
