/**
 * A file glob as ripgrep's `--glob` reads it, turned into a RegExp over workspace-relative
 * POSIX paths: `*` and `?` stay within one path segment, `**` crosses segments, `{a,b}` and
 * `[abc]` work, and a glob without `/` matches the base name at any depth (`*.ts`).
 */
export function globToRegExp(glob: string): RegExp {
  const anchored = glob.includes('/');
  const body = translate(glob.replace(/^\//, ''));
  return new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`);
}

function translate(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const inner = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${inner}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '\\' && i + 1 < glob.length) out += escape(glob[++i]!);
    else out += escape(c);
  }
  return out + ')'.repeat(braces);
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
