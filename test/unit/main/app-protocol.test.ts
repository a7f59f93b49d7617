import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APP_CSP,
  handleAppProtocol,
  registerAppScheme,
  serveAppRequest,
} from '../../../main/app-protocol.js';

let dir: string;
let rendererDir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolbridge-app-'));
  rendererDir = join(dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Toolbridge</title>');
  await writeFile(join(rendererDir, 'assets', 'index-1.js'), 'export {}');
  await mkdir(join(dir, 'etc'));
  await writeFile(join(dir, 'etc', 'passwd'), 'root:x:0:0');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('app:// protocol (E1/E18)', () => {
  it('registers app as a standard, secure scheme', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    expect(registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('serves the renderer with its CSP', async () => {
    const response = await serveAppRequest(rendererDir, 'app://bundle/index.html');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Toolbridge</title>');
    expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(
      (await serveAppRequest(rendererDir, 'app://bundle/assets/index-1.js')).headers.get('content-type'),
    ).toContain('javascript');
  });

  it.each([
    'app://bundle/../etc/passwd',
    'app://bundle/../../etc/passwd',
    'app://bundle/%2e%2e/etc/passwd',
    'app://bundle/%2E%2E/%2E%2E/etc/passwd',
    'app://bundle/assets/..%2f..%2fetc/passwd',
    'app://bundle/..%5c..%5cetc%5cpasswd',
    'app://other/index.html',
    'app://bundle/missing.js',
  ])('answers 404 for %s', async (url) => {
    const response = await serveAppRequest(rendererDir, url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('root:');
  });

  it('handles the scheme through protocol.handle', async () => {
    const handle = vi.fn();
    handleAppProtocol({ handle }, rendererDir);
    const [scheme, handler] = handle.mock.calls[0] as [string, (request: Request) => Promise<Response>];
    expect(scheme).toBe('app');
    expect((await handler(new Request('app://bundle/index.html'))).status).toBe(200);
  });
});
