/**
 * The fence language of a code element from its classes (`language-ts`, as remark-rehype writes
 * them, or highlight.js's `lang-ts`), for the code block's label; undefined for a bare fence.
 */
export function codeLanguage(className: string | undefined): string | undefined {
  for (const name of className?.split(/\s+/) ?? []) {
    const match = /^(?:language|lang)-(.+)$/.exec(name);
    if (match) return match[1];
  }
  return undefined;
}
