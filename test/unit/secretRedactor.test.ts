import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor, MIN_SECRET_CHARS } from '../../src/task/secretRedactor';

// Fake secrets are built at run time, never written into a file.
const alnum = (n: number) => randomBytes(n * 2).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, n).padEnd(n, '7');
const sessionKey = `sk-ant-api03-${alnum(40)}-${alnum(20)}AA`;
const awsId = `AKIA${alnum(16).toUpperCase()}`;
const awsSecret = `${alnum(18)}/${alnum(10)}+${alnum(10)}`;
const ghp = `ghp_${alnum(36)}`;
const ghPat = `github_pat_${alnum(22)}_${alnum(59)}`;

const redact = createRedactor({ secrets: [sessionKey] });
const keyOnly = createRedactor({ secrets: [sessionKey], formats: false });

describe('the session key', () => {
  it('is replaced wherever it appears, with or without the format rules, in an environ dump too', () => {
    const environ = `PATH=/usr/bin\0ANTHROPIC_API_KEY=${sessionKey}\0HOME=/root\0`;
    for (const r of [redact, keyOnly]) {
      const out = r(environ);
      expect(out).not.toContain(sessionKey);
      expect(out).toContain('ANTHROPIC_API_KEY=[redacted: session-key]');
      expect(out).toContain('PATH=/usr/bin\0');
      expect(out).toContain('HOME=/root');
    }
  });

  it('a key of any shape is replaced exactly (a non-Anthropic key for another endpoint)', () => {
    const other = alnum(24);
    const r = createRedactor({ secrets: [other], formats: false });
    expect(r(`key is ${other}.`)).toBe('key is [redacted: session-key].');
  });

  it('its base64 form is replaced at each byte alignment, standard and URL-safe', () => {
    for (const prefix of ['', 'K=', 'KY=', 'KEY=']) {
      const encoded = Buffer.from(`${prefix}${sessionKey}\n`).toString('base64');
      for (const form of [encoded, encoded.replace(/\+/g, '-').replace(/\//g, '_')]) {
        const out = keyOnly(`Authorization: Basic ${form}`);
        expect(out).toContain('[redacted: session-key-base64]');
        // What is left of the encoding decodes to at most a few bytes at either edge of the key.
        const rest = out.replace('Authorization: Basic ', '').split('[redacted: session-key-base64]').join('');
        expect(rest.length).toBeLessThanOrEqual(12);
      }
    }
  });

  it(`a secret shorter than ${MIN_SECRET_CHARS} characters is not looked for (it would wreck the text)`, () => {
    const r = createRedactor({ secrets: ['abc'], formats: false });
    expect(r('abc abcdef')).toBe('abc abcdef');
  });
});

describe('known formats', () => {
  it.each([
    ['an Anthropic key', `key ${'sk-ant-api03-'}${alnum(50)} end`, 'key [redacted: anthropic-key] end'],
    ['an AWS access key id', `id ${awsId} end`, 'id [redacted: aws-access-key-id] end'],
    ['an AWS session key id', `id ASIA${alnum(16).toUpperCase()} end`, 'id [redacted: aws-access-key-id] end'],
    ['a GitHub classic token', `t=${ghp};`, 't=[redacted: github-token];'],
    ['a GitHub fine-grained token', `"${ghPat}"`, '"[redacted: github-token]"'],
    ['a GitHub app token', `x ghs_${alnum(36)} y`, 'x [redacted: github-token] y'],
  ])('%s', (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
    expect(keyOnly(text)).toBe(text);
  });

  it('a PEM private-key block, whole, and one cut short to the end of the text', () => {
    const body = Array.from({ length: 5 }, () => alnum(64)).join('\n');
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(redact(`before\n${pem}\nafter`)).toBe('before\n[redacted: private-key]\nafter');
    expect(redact(`a\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n… (4096 bytes cut from the middle)`)).toBe('a\n[redacted: private-key]\n… (4096 bytes cut from the middle)');
    const cert = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
    expect(redact(cert)).toBe(cert);
  });

  it('a key inside JSON (a service account file), and one read with line numbers', () => {
    const body = Array.from({ length: 3 }, () => alnum(64)).join('\\n');
    const json = `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n", "client_email": "a@b.iam"}`;
    expect(redact(json)).toBe('{"type": "service_account", "private_key": "[redacted: private-key]\\n", "client_email": "a@b.iam"}');
    const numbered = ['1 | -----BEGIN EC PRIVATE KEY-----', `2 | ${alnum(64)}`, `3 | ${alnum(20)}==`, '4 | -----END EC PRIVATE KEY-----', '5 | done'].join('\n');
    expect(redact(numbered)).toBe('1 | [redacted: private-key]\n5 | done');
  });

  it('code that only names the markers is left alone', () => {
    const code = "const header = '-----BEGIN PRIVATE KEY-----';\nconst footer = '-----END PRIVATE KEY-----';\nif (pem.startsWith(header)) parse(pem);";
    expect(redact(code)).toBe(code);
  });
});

describe('secret-named assignments: the value goes, the name stays', () => {
  it.each([
    ['a .env line (AWS)', `AWS_SECRET_ACCESS_KEY=${awsSecret}\n`, 'AWS_SECRET_ACCESS_KEY=[redacted: aws-secret]\n'],
    ['an INI credentials file', `[default]\naws_secret_access_key = ${awsSecret}\n`, '[default]\naws_secret_access_key = [redacted: aws-secret]\n'],
    ['export', 'export GITLAB_TOKEN=glpat-abc123def456\n', 'export GITLAB_TOKEN=[redacted: token]\n'],
    ['PASSWORD=', 'DB_PASSWORD=hunter2 ./run.sh', 'DB_PASSWORD=[redacted: password] ./run.sh'],
    ['*_SECRET=', 'CLIENT_SECRET=abc.def-ghi', 'CLIENT_SECRET=[redacted: secret]'],
    ['a quoted .env value', 'STRIPE_API_KEY="rk_live_51Habc"', 'STRIPE_API_KEY="[redacted: api-key]"'],
    ['YAML', 'db:\n  password: s3cr3t # prod\n  user: app\n', 'db:\n  password: [redacted: password] # prod\n  user: app\n'],
    ['a YAML list item', '- api_key: abcdef\n', '- api_key: [redacted: api-key]\n'],
    ['JSON', '{"auth_token": "tok-123", "user": "me"}', '{"auth_token": "[redacted: token]", "user": "me"}'],
    ['a hard-coded string in code', 'const apiKey = "abc123";', 'const apiKey = "[redacted: api-key]";'],
    ['a command-line flag', 'mysql --password=pa55 -u root', 'mysql --password=[redacted: password] -u root'],
    ['docker -e', 'docker run -e "NPM_TOKEN=npm_abc" img', 'docker run -e "NPM_TOKEN=[redacted: token]" img'],
  ])('%s', (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
    expect(keyOnly(text)).toBe(text);
  });

  it.each([
    ['a call', 'const token = getToken();'],
    ['a member', '  password = args.password'],
    ['a keyword argument', 'login(user, password=pw)'],
    ['a keyword argument before another', 'connect(password=pw, host=h)'],
    ['a comparison', 'if (token === "") return;'],
    ['an arrow', 'tokens.map((token) => token.text)'],
    ['a type annotation', '  token: string;\n  secret: CancellationToken\n  password?: string'],
    ['a setting that is not a secret', 'PASSWORD_MIN_LENGTH=8\nTOKEN_TTL_SECONDS=3600\nmaxTokens: 4096'],
    ['a variable reference', 'API_TOKEN=$(cat token.txt)\nGH_TOKEN=${{ secrets.GH }}\npassword: ${DB_PASSWORD}'],
    ['an empty value', 'SECRET=\npassword: ""'],
    ['prose', 'Password: must be at least 8 characters.\nThe token: a word of the lexer.'],
    ['an object literal', '{ token: nextToken, password: input.value }'],
    ['a boolean', 'requireToken: true\nuse_password=false'],
    ['a mid-line short value', 'the token = abc'],
  ])('leaves ordinary code alone: %s', (_what, text) => {
    expect(redact(text)).toBe(text);
  });

  it('is idempotent: redacting twice changes nothing more (the cached prefix stays stable)', () => {
    const text = `ANTHROPIC_API_KEY=${sessionKey}\nAWS_SECRET_ACCESS_KEY=${awsSecret}\n"token": "${ghp}"\npassword: x1\n${awsId}`;
    const once = redact(text);
    expect(redact(once)).toBe(once);
    expect(once).not.toMatch(new RegExp([sessionKey, awsSecret, ghp, awsId].map((s) => s.replace(/[+/]/g, '\\$&')).join('|')));
  });

  it('is deterministic: two redactors built alike give the same text', () => {
    const text = `AWS_SECRET_ACCESS_KEY=${awsSecret} ${ghp}`;
    expect(createRedactor({ secrets: [sessionKey] })(text)).toBe(redact(text));
  });
});

// A scan that goes back over the text for each candidate takes minutes at 1 MB; a linear one
// takes about 0.1 s here, and 2-3 s under Stryker's instrumented code on a loaded machine.
describe('linear time', () => {
  it.each([
    ['a long run of names', 'a_token=b_token='.repeat(60_000)],
    ['unclosed quotes', 'token:"x '.repeat(60_000)],
    ['one long line of key characters', `secret = ${'a1'.repeat(200_000)}(`],
    ['many PEM openings without an end', '-----BEGIN PRIVATE KEY-----x'.repeat(20_000)],
    ['prefixes that almost match', 'sk-ant-abc ghp_abc AKIA12 '.repeat(40_000)],
    ['a long PascalCase word after a name', `\ntoken: ${'Ab'.repeat(200_000)}a`],
    // a skipped value is not scanned again for names: each name below would scan to the end
    ['a placeholder value made of names', `PASSWORD=$${'a_token=$'.repeat(110_000)}`],
    ['a bracketed value made of names', `PASSWORD=x[${'a_token=x['.repeat(100_000)}`],
    ['quoted placeholders, each holding the next name', 'a_token="$ '.repeat(100_000)],
    ['one quoted placeholder holding every name', `password="$ ${'a_token=$x '.repeat(90_000)}"`],
  ])('%s: a 1 MB input takes seconds at most, not minutes', (_what, text) => {
    const started = performance.now();
    redact(text);
    expect(performance.now() - started).toBeLessThan(8_000);
  });
});
