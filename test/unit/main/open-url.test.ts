import { describe, expect, it, vi } from 'vitest';
import { openExternalUrl, safeExternalUrl } from '../../../main/open-url.js';

const HOSTILE = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'file://C:/Windows/system32/calc.exe',
  'vbscript:msgbox(1)',
  'ms-settings:',
  'smb://attacker.example/share',
  'ssh://attacker.example',
  'mailto:a@b.example',
  'tel:123',
  'vscode://some.extension/run',
  'cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=eA==',
  'toolbridge://anything',
  'http://evil.example/',
  'http://192.168.1.10/',
  'http://10.0.0.1/admin',
  'http://0.0.0.0:8080/',
  'https://user:pass@example.com/',
  'https://example.com/"onmouseover="alert(1)',
  "https://example.com/'x'",
  'https://example.com/\nSet-Cookie:x',
  'https://example.com/\r\nfoo',
  'https://exa mple.com/',
  'https://example.com/<script>',
  'https://example.com/`id`',
  'https:\\\\example.com\\path',
  '//example.com/no-scheme',
  '',
  'not a url',
  `https://example.com/${'a'.repeat(5000)}`,
];

describe('safeExternalUrl', () => {
  it.each(HOSTILE)('refuses %j', (raw) => {
    expect(safeExternalUrl(raw)).toBeUndefined();
  });

  it.each([
    'https://example.com/',
    'https://github.com/login/oauth/authorize?client_id=abc&state=x%20y',
    'http://127.0.0.1:8123/callback',
    'http://localhost:3000/',
    'http://[::1]:9000/',
  ])('allows %s', (raw) => {
    expect(safeExternalUrl(raw)?.href).toBe(new URL(raw).href);
  });
});

describe('openExternalUrl', () => {
  it('never calls openExternal for a hostile URL and calls it once for a good one', async () => {
    const openExternal = vi.fn(async () => {});
    for (const raw of HOSTILE) expect(await openExternalUrl(raw, openExternal)).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
    expect(await openExternalUrl('https://example.com/a b'.replace(' ', '%20'), openExternal)).toBe(true);
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/a%20b');
  });
});
