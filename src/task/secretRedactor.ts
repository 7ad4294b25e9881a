/**
 * Replaces secrets in text with a marker that says what was there (`[redacted: aws-secret]`):
 * the exact keys the session holds (and their base64 forms), always; known formats (Anthropic,
 * AWS, GitHub, private-key blocks, secret-named assignments) unless `formats` is off.
 * Pure and deterministic (the cached prompt prefix depends on it), linear in the text (no
 * pattern here can backtrack), and idempotent (a marker is never redacted again).
 */
export interface RedactorOptions {
  /** Exact strings to remove wherever they appear, e.g. the session's API key. */
  secrets: readonly string[];
  /** Also redact the known formats (on by default; `strata.redactSecrets` / `--no-redact`). */
  formats?: boolean;
}

export type Redact = (text: string) => string;

/** A secret shorter than this is not looked for: replacing every "abc" would wreck the text. */
export const MIN_SECRET_CHARS = 8;

export function redactMarker(kind: string): string {
  return `[redacted: ${kind}]`;
}

/** Builds the redactor once per session (the secrets' encodings are computed here). */
export function createRedactor(options: RedactorOptions): Redact {
  const exact = exactForms(options.secrets);
  const formats = options.formats ?? true;
  return (text) => {
    let out = text;
    for (const { value, kind } of exact) if (out.includes(value)) out = out.split(value).join(redactMarker(kind));
    if (!formats) return out;
    out = redactPrivateKeys(out);
    for (const { pattern, kind } of TOKEN_FORMATS) out = out.replace(pattern, redactMarker(kind));
    return redactAssignments(out);
  };
}

/** Each secret, then its base64 forms (standard and URL-safe) at each of the three byte alignments. */
function exactForms(secrets: readonly string[]): Array<{ value: string; kind: string }> {
  const forms: Array<{ value: string; kind: string }> = [];
  const distinct = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_CHARS))].sort((a, b) => b.length - a.length);
  for (const secret of distinct) forms.push({ value: secret, kind: 'session-key' });
  for (const secret of distinct) {
    for (const encoded of base64Forms(secret)) if (encoded.length >= MIN_SECRET_CHARS) forms.push({ value: encoded, kind: 'session-key-base64' });
  }
  return forms;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The base64 characters that only the secret's bytes determine, when the secret starts at byte
 * offset 0, 1 or 2 of the encoded data: so `base64 <<< "KEY=$KEY"` is caught too, not only `base64 <<< $KEY`.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const out = new Set<string>();
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    const encoded = base64(padded);
    // Character i holds bits [6i, 6i + 6) of the data; keep those inside the secret's bits.
    const first = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    const stable = encoded.slice(first, end);
    out.add(stable);
    out.add(stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out];
}

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  return out;
}

/**
 * Key formats recognisable on their own. Each is a literal prefix and one character class, so a
 * match is found in one pass.
 */
const TOKEN_FORMATS: ReadonlyArray<{ pattern: RegExp; kind: string }> = [
  { pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g, kind: 'anthropic-key' },
  { pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g, kind: 'aws-access-key-id' },
  { pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, kind: 'github-token' },
];

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----/y;
/**
 * What a key block's body may hold: base64, blanks, `\n` escapes (a key inside JSON), a line
 * number prefix (`12 | `) and header lines (`Proc-Type: 4,ENCRYPTED`); never five dashes.
 */
const PEM_BODY = /[A-Za-z0-9+/=\s\\|:,-]/;
/** Base64 characters a body needs before it counts as a key (the markers alone, in code, are not one). */
const PEM_MIN_BODY = 40;

/**
 * A PEM private-key block: the BEGIN marker, its body, and its END marker when it comes; a block
 * cut short (a truncated output) is redacted to where its body ends. Code that only names the
 * markers (`header = '-----BEGIN PRIVATE KEY-----'`) has no body and is left alone.
 */
function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  let out = '';
  let from = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin; begin = PEM_BEGIN.exec(text)) {
    let j = begin.index + begin[0].length;
    let base64 = 0;
    while (j < text.length && PEM_BODY.test(text[j]!) && !text.startsWith('-----', j)) {
      if (/[A-Za-z0-9+/]/.test(text[j]!)) base64++;
      j++;
    }
    PEM_END.lastIndex = j;
    const end = PEM_END.exec(text);
    if (base64 < PEM_MIN_BODY) {
      PEM_BEGIN.lastIndex = j;
      continue;
    }
    let stop = end ? j + end[0].length : j;
    if (!end) while (stop > begin.index && /\s/.test(text[stop - 1]!)) stop--;
    out += text.slice(from, begin.index) + redactMarker('private-key');
    from = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  return out + text.slice(from);
}

/** Names whose value is a secret: the name ENDS with one of these words (PASSWORD_MIN_LENGTH does not). */
const SECRET_NAME = /(?:secret|token|password|passwd|passphrase|api[_-]?key|secret[_-]?key|access[_-]?key|private[_-]?key)$/i;
/** A name as it appears before `=` or `:` (dots and dashes for YAML and header-like keys). */
const NAME = /[A-Za-z_][A-Za-z0-9_.-]*/g;
/** A value that looks like a key: one run of key characters with a letter and a digit, 16 or more, no `_` (identifiers have them). */
const KEYLIKE = /^(?=\D*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9+/=-]{16,}$/;
/** Unquoted words that are not secrets: literals, and the types of a declaration (`token: string`, `token: CancellationToken`). */
const NOT_A_VALUE = /^(?:true|false|null|none|nil|undefined|~|TRUE|FALSE|NULL|NONE|string|number|boolean|str|int|bytes|any|unknown|object|(?:[A-Z][a-z]+)+)$/;
/** An unquoted value ends at a blank, a quote, code punctuation, or the NUL between /proc/…/environ entries. */
const VALUE_STOP = /[\s\0"'`,;()]/;

/**
 * `NAME=value`, `name: value`, `"name": "value"`, `name = "value"` where the name is a secret's
 * name: the value is replaced, the name kept (the model still knows the variable is set).
 * Code keeps its meaning: `const token = getToken()`, `f(password=pw)`, `token: string` and
 * `PASSWORD_MIN_LENGTH=8` are left alone; an unquoted value is taken only where a config file
 * or an environment would hold one, or where it looks like a key.
 * Linear: after a candidate the scan resumes past its value, and a quote found unclosed on a
 * line is remembered, so no character is scanned again for later candidates.
 */
function redactAssignments(text: string): string {
  let out = '';
  let from = 0;
  const scan: ScanState = { unclosedUntil: new Map() };
  NAME.lastIndex = 0;
  for (let m = NAME.exec(text); m; m = NAME.exec(text)) {
    const name = m[0];
    if (!SECRET_NAME.test(name)) continue;
    const found = valueAfter(text, m.index, m.index + name.length, scan);
    if (found.resume > NAME.lastIndex) NAME.lastIndex = found.resume;
    if (!found.value) continue;
    out += text.slice(from, found.value.start) + redactMarker(kindOf(name));
    from = found.value.end;
  }
  return out + text.slice(from);
}

interface ScanState {
  /** For each quote character, the line end up to which it is known to have no closing quote. */
  unclosedUntil: Map<string, number>;
}

interface Found {
  /** The secret value's span, if the name has one to hide. */
  value?: { start: number; end: number };
  /** Where the name scan goes on from. */
  resume: number;
}

/** Where the secret value of the name at [start, end) lies, if there is one to hide. */
function valueAfter(text: string, start: number, end: number, scan: ScanState): Found {
  let i = end;
  const none: Found = { resume: end };
  const quotedName = (text[start - 1] === '"' || text[start - 1] === "'") && text[i] === text[start - 1];
  if (quotedName) i++;
  const spaceBefore = skipBlanks(text, i) - i;
  i += spaceBefore;
  let sep: string;
  if (text.startsWith(':=', i)) sep = ':=';
  else if (text[i] === '=' && text[i + 1] !== '=' && text[i + 1] !== '>') sep = '=';
  else if (text[i] === ':' && text[i + 1] !== ':') sep = ':';
  else return none;
  i += sep.length;
  const spaceAfter = skipBlanks(text, i) - i;
  i += spaceAfter;
  const quote = text[i];
  if (quote === '"' || quote === "'" || quote === '`') {
    if ((scan.unclosedUntil.get(quote) ?? -1) > i) return none;
    const close = closingQuote(text, i);
    if (close.at === undefined) {
      scan.unclosedUntil.set(quote, close.scannedTo);
      return none;
    }
    const inner = text.slice(i + 1, close.at);
    // The scan goes on inside an empty or placeholder value: `"$(VAULT_TOKEN=… vault read)"`
    // holds an assignment of its own (the unquoted `$(…)` is scanned the same way).
    if (inner === '' || isPlaceholder(inner)) return none;
    return { value: { start: i + 1, end: close.at }, resume: close.at + 1 };
  }
  let valueEnd = i;
  while (valueEnd < text.length && !VALUE_STOP.test(text[valueEnd]!)) valueEnd++;
  const value = text.slice(i, valueEnd);
  const skip: Found = { resume: Math.max(end, valueEnd) };
  if (value === '' || isPlaceholder(value) || NOT_A_VALUE.test(value) || /^[[{&*|>!#<]/.test(value) || /[[\]{}<>]/.test(value)) return skip;
  const after = text[valueEnd];
  // `NAME=value` (an environment, a .env line, `export`, `docker -e`): the value runs to a blank
  // or a closing quote; one that a `,` or `)` ends is a keyword argument in code.
  if (sep === '=' && spaceBefore === 0 && spaceAfter === 0 && !quotedName) {
    return after === undefined || /[\s\0"'`]/.test(after) ? { value: { start: i, end: valueEnd }, resume: valueEnd } : skip;
  }
  // `name: value` alone on a line (YAML, a properties file): one word, then at most a comment.
  if (sep === ':' && !quotedName && startsLine(text, start) && /^[ \t]*(?:#[^\n]*)?(?:\r?\n|$)/.test(text.slice(valueEnd, lineEndOf(text, valueEnd) + 1))) {
    return { value: { start: i, end: valueEnd }, resume: valueEnd };
  }
  // Anywhere else (`aws_secret_access_key = wJalr…` in an INI file) only a value that looks like a key.
  return KEYLIKE.test(value) ? { value: { start: i, end: valueEnd }, resume: valueEnd } : skip;
}

function kindOf(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('aws') && n.includes('secret')) return 'aws-secret';
  if (/pass(?:word|wd|phrase)$/.test(n)) return 'password';
  if (n.endsWith('token')) return 'token';
  if (/api[_-]?key$/.test(n)) return 'api-key';
  if (/private[_-]?key$/.test(n)) return 'private-key';
  return 'secret';
}

/** `$VAR`, `${VAR}`, `{{ vault }}`, `%(x)s`, or an earlier marker: not a secret itself. */
function isPlaceholder(value: string): boolean {
  return /^(?:\$|\{\{|%\(|\[redacted: )/.test(value);
}

function skipBlanks(text: string, i: number): number {
  let j = i;
  while (text[j] === ' ' || text[j] === '\t') j++;
  return j;
}

function lineEndOf(text: string, i: number): number {
  let j = i;
  while (j < text.length && text[j] !== '\n') j++;
  return j;
}

/** The closing quote on the same line (backslash escapes skipped); else how far the line went. */
function closingQuote(text: string, open: number): { at?: number; scannedTo: number } {
  const quote = text[open];
  let j = open + 1;
  for (; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === quote) return { at: j, scannedTo: j };
    else if (c === '\n') break;
  }
  return { scannedTo: j };
}

/** Whether only indentation, `export `, or a YAML `- ` stands between the line's start (or a NUL) and `at`. */
function startsLine(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  if (j >= 5 && text.slice(j - 5, j + 1) === 'export') j -= 6;
  else if (j >= 0 && text[j] === '-') j--;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  return j < 0 || text[j] === '\n' || text[j] === '\r' || text[j] === '\0';
}
