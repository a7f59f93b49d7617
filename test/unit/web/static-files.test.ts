import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStaticPath } from '../../../src/web/static-files.js';

const root = join(sep, 'app', 'out', 'renderer');

describe('resolveStaticPath', () => {
  it('maps / to index.html and plain paths under the root', () => {
    expect(resolveStaticPath(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/index-1a2b.js')).toBe(join(root, 'assets', 'index-1a2b.js'));
    expect(resolveStaticPath(root, '/assets/a%20b.css')).toBe(join(root, 'assets', 'a b.css'));
  });

  it.each([
    '/../etc/passwd',
    '/../../etc/passwd',
    '/%2e%2e/etc/passwd',
    '/%2E%2E/%2E%2E/etc/passwd',
    '/assets/..%2f..%2f..%2fetc/passwd',
    '/..\\..\\etc\\passwd',
    '/%5c..%5cetc',
    '/index.html%00',
    '//etc/passwd/../../..',
    'etc/passwd',
    '/%E0%A4%A',
    '/..',
  ])('refuses %s', (path) => {
    expect(resolveStaticPath(root, path)).toBeUndefined();
  });

  it('keeps a file whose name merely starts with two dots', () => {
    expect(resolveStaticPath(root, '/..hidden')).toBe(join(root, '..hidden'));
  });
});
