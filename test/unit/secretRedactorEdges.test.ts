import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/task/secretRedactor';

// Edges of the redactor found by mutation testing (task-redaction): each case is one rule whose
// change would leak a secret or wreck ordinary text. Fake secrets are built at run time.

const redact = createRedactor({ secrets: [] });
const b64 = (n: number) => 'Ab3+'.repeat(Math.ceil(n / 4)).slice(0, n);

describe('assignments in more syntaxes', () => {
  it.each([
    ['an env flag written with =', 'docker run --env=DB_PASSWORD=hunter2 img', 'docker run --env=DB_PASSWORD=[redacted: password] img'],
    ['a single-quoted name and value', "{'api_key': 'abc123'}", "{'api_key': '[redacted: api-key]'}"],
    ['a single-quoted value', "password = 'hunter2'", "password = '[redacted: password]'"],
    ['a template string', 'token = `abc123`', 'token = `[redacted: token]`'],
    ['Go :=', 'password := "hunter2"', 'password := "[redacted: password]"'],
    ['a value with # and ! in it', 'DB_PASSWORD=p4ss#word!', 'DB_PASSWORD=[redacted: password]'],
    ['a value with $ in it', 'DB_PASSWORD=pa$$word', 'DB_PASSWORD=[redacted: password]'],
  ])('%s', (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['a comparison without spaces', 'token==abc123'],
    ['a path in Rust or C++', 'token::abc\n'],
    ['a name then a word', 'token x1\n'],
    ['a quote left open on its line', 'password: "abc\nnext: line'],
  ])('leaves alone %s', (_what, text) => {
    expect(redact(text)).toBe(text);
  });

  it.each([
    ['PASSWORDLESS_TOKEN=abc123', 'token'],
    ['API_KEY_SECRET=abc123', 'secret'],
    ['PRIVATE_KEY_SECRET=abc123', 'secret'],
    ['SSH_PRIVATE_KEY=abc123', 'private-key'],
    ['PRIVATEKEY=abc123', 'private-key'],
    ['AWS_SESSION_TOKEN=abc123', 'token'],
    ['AWS_SECRET=abc123', 'aws-secret'],
  ])('%s is marked as a %s', (text, kind) => {
    expect(redact(text)).toBe(`${text.slice(0, text.indexOf('=') + 1)}[redacted: ${kind}]`);
  });
});

describe('private-key blocks: the size rule and the cut end', () => {
  const begin = '-----BEGIN PRIVATE KEY-----\n';
  it('a body of 40 base64 characters is a key, 39 are not, blanks do not count', () => {
    expect(redact(`${begin}${b64(40)}`)).toBe('[redacted: private-key]');
    expect(redact(`${begin}${b64(39)}`)).toBe(`${begin}${b64(39)}`);
    const sparse = `${begin}${b64(30).split('').join('  \n')}\n-----END PRIVATE KEY-----`;
    expect(redact(sparse)).toBe(sparse);
  });

  it('a block cut short gives its trailing blank back to the text after it', () => {
    expect(redact(`${begin}${b64(64)}\néx`)).toBe('[redacted: private-key]\néx');
  });
});

describe('the exact secrets', () => {
  it('one of exactly the minimum length is looked for; a longer one that contains a shorter goes whole', () => {
    const short = 'q7Wz9xYk';
    const long = `${short}Lm3P`;
    expect(createRedactor({ secrets: [short], formats: false })(`a ${short} b`)).toBe('a [redacted: session-key] b');
    expect(createRedactor({ secrets: [short, long], formats: false })(`a ${long} b`)).toBe('a [redacted: session-key] b');
  });

  it('its base64 forms with + and / (standard) and - and _ (URL-safe) go whole', () => {
    const secret = ['abc', '~~~', '???', '~~~'].join('');
    const encoded = Buffer.from(secret).toString('base64');
    expect(encoded).toMatch(/\+.*\//);
    const r = createRedactor({ secrets: [secret], formats: false });
    expect(r(`x ${encoded} y`)).toBe('x [redacted: session-key-base64] y');
    expect(r(`x ${encoded.replace(/\+/g, '-').replace(/\//g, '_')} y`)).toBe('x [redacted: session-key-base64] y');
  });
});

describe('secret names, separators and lines (second batch)', () => {
  it.each([
    ['a name joined without a separator', 'SECRETKEY=abc123', 'SECRETKEY=[redacted: secret]'],
    ['secret_key', 'MY_SECRET_KEY=abc123', 'MY_SECRET_KEY=[redacted: secret]'],
    ['accesskey', 'ACCESSKEY=abc123', 'ACCESSKEY=[redacted: secret]'],
    ['access_key', 'MINIO_ACCESS_KEY=abc123', 'MINIO_ACCESS_KEY=[redacted: secret]'],
    ['a value ending in a literal word', 'DB_PASSWORD=abcnull', 'DB_PASSWORD=[redacted: password]'],
    ['tabs around =', 'password\t=\t"hunter2"', 'password\t=\t"[redacted: password]"'],
    ['an escaped quote inside the value', 'password = "ab\\"cd"', 'password = "[redacted: password]"'],
    ['YAML at the very end of the text', 'password: s3cr3t', 'password: [redacted: password]'],
    ['YAML after export', 'export password: s3cr3t\n', 'export password: [redacted: password]\n'],
    ['YAML indented with a tab', 'db:\n\tpassword: s3cr3t\n', 'db:\n\tpassword: [redacted: password]\n'],
    ['YAML indented at the start of the text', ' password: s3cr3t\n', ' password: [redacted: password]\n'],
    ['a YAML list item indented at the start', ' - api_key: abc123\n', ' - api_key: [redacted: api-key]\n'],
    ['YAML after a lone carriage return', 'a: 1\rpassword: s3cr3t', 'a: 1\rpassword: [redacted: password]'],
    ['YAML after a NUL (an environ dump)', 'A=1\0password: s3cr3t', 'A=1\0password: [redacted: password]'],
  ])('%s', (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['a quote closed only on a later line', 'password: "abc\nnext: "x"'],
    ['a name after a word on the line', 'a password: s3cr3t\n'],
    ['an identifier with underscores after a name', 'secret = some_identifier_name_2024abcdefgh'],
    ['key characters followed by an underscore', 'secret = abcdefgh12345678_x'],
    ['letters alone, however long', 'secret = abcdefghijklmnopqr'],
  ])('leaves alone %s', (_what, text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('key-like values and line starts (third batch)', () => {
  it.each([
    ['a key-like value starting with letters', 'secret = abcdefgh12345678', 'secret = [redacted: secret]'],
    ['a key-like value starting with digits', 'secret = 12345678abcdefgh', 'secret = [redacted: secret]'],
    ['YAML after export and a tab', 'export\tpassword: s3cr3t\n', 'export\tpassword: [redacted: password]\n'],
    ['a YAML list item indented with a tab', '\t- api_key: abc123\n', '\t- api_key: [redacted: api-key]\n'],
  ])('%s', (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['an identifier whose tail alone looks like a key', 'secret = my_var_abcdefgh12345678'],
    ['a six-letter word before the name', 'abcdef password: s3cr3t\n'],
  ])('leaves alone %s', (_what, text) => {
    expect(redact(text)).toBe(text);
  });
});

// Each text below is one the redactor must leave unchanged: it stands near a secret-named
// assignment but holds no secret value. A mutant that moves one of these boundaries redacts more.
describe('near a secret but not one: left alone (fourth batch)', () => {
  it.each([
    ['a blank before = (not an environment line)', 'TOKEN =abc123'],
    ['a blank after = (not an environment line)', 'TOKEN= abc123'],
    ['a quoted name then = and a short value', '"token"=abc123'],
    ['a short value after : in the middle of a line', 'see token:abc123 here'],
    ['a short value after := in the middle of a line', 'x token:=abc123 y'],
    ['a short value after = with blanks, alone on its line', 'token = abc123\n'],
    ['a long number (no letter, so not key-like)', 'session_token = 1234567890123456'],
    ['key characters one short of key-like (15)', 'secret = abcdefgh1234567'],
    ['TOKEN as a word in prose', 'Set the TOKEN before you run it, then the secret is kept.'],
    ['an empty quoted value then prose', 'password = "" is refused by the server'],
    ['a short value then one more character on its line', 'password: abc x\n'],
    ['a short value then code punctuation', 'token: value;\n'],
  ])('%s', (_what, text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('an assignment inside a quoted placeholder value', () => {
  it('is redacted as it is without the quotes', () => {
    expect(redact('PASSWORD=$(VAULT_TOKEN=abc123 vault read x)')).toBe('PASSWORD=$(VAULT_TOKEN=[redacted: token] vault read x)');
    expect(redact('PASSWORD="$(VAULT_TOKEN=abc123 vault read x)"')).toBe('PASSWORD="$(VAULT_TOKEN=[redacted: token] vault read x)"');
  });
});
