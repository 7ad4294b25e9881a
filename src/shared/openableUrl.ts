/** Schemes a link in an answer may open, through the editor (`vscode.env.openExternal`). */
const OPENABLE = new Set(['http:', 'https:', 'mailto:']);

/**
 * The absolute URL `href` names if the editor may open it, else undefined. Relative links,
 * `javascript:`, `data:`, `command:` and `file:` URLs stay inert: a model's answer must not run
 * editor commands or open local files by a click.
 */
export function openableUrl(href: string | undefined): string | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return OPENABLE.has(url.protocol) ? url.href : undefined;
}
