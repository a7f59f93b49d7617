import { describe, expect, it } from 'vitest';
import {
  checkRedactionPatterns,
  createRedactor,
  isSecretKey,
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
