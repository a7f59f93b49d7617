import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect, type TestContext } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Where screenshots go: the README's docs/screenshots when TOOLBRIDGE_UPDATE_SCREENSHOTS=1 (run that
 * to refresh them), else test-results/screenshots, so an ordinary test run never rewrites tracked files.
 */
export const SCREENSHOTS =
  process.env.TOOLBRIDGE_UPDATE_SCREENSHOTS === '1'
    ? join(ROOT, 'docs', 'screenshots')
    : join(ROOT, 'test-results', 'screenshots');
export const CHROMIUM = '/usr/bin/chromium';
const CLI = join(ROOT, 'bin', 'toolbridge.js');

/** The e2e suite drives the built app; say plainly what is missing instead of failing obscurely. */
export function assertBuilt(): void {
  const missing = ['dist/cli/main.js', 'out/renderer/index.html'].filter(
    (file) => !existsSync(join(ROOT, file)),
  );
  if (missing.length > 0) {
    throw new Error(`e2e needs a build (${missing.join(', ')} missing): run \`npm run build\` first.`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`e2e needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\`.`);
  }
}

async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Serve {
  dataDir: string;
  uiUrl: string;
  endpointUrl: string;
  agentToken: string;
  origin: string;
  port: number;
  stderr: string[];
  stop(): Promise<void>;
}

/**
 * A real `toolbridge serve` in a fresh data folder on a free port, as a user would run it;
 * `prepare` may write the folder's settings first.
 */
async function startServe(
  extraArgs: string[] = [],
  prepare?: (dataDir: string) => Promise<void>,
): Promise<Serve> {
  const dataDir = await mkdtemp(join(tmpdir(), 'toolbridge-e2e-'));
  await prepare?.(dataDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--data-dir', dataDir, '--port', '0', ...extraArgs],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.push(...chunk.split('\n')));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(...chunk.split('\n')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const value = (prefix: string) =>
    stdout
      .find((line) => line.startsWith(prefix))
      ?.slice(prefix.length)
      .trim();

  const deadline = Date.now() + 60_000;
  while (value('ui:') === undefined) {
    if (child.exitCode !== null) throw new Error(`toolbridge serve exited early:\n${stderr.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`toolbridge serve printed no ui: line:\n${stderr.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const uiUrl = value('ui:')!;
  const url = new URL(uiUrl);
  return {
    dataDir,
    uiUrl,
    endpointUrl: value('agent endpoint:')!,
    agentToken: value('agent token:')!,
    origin: url.origin,
    port: Number(url.port),
    stderr,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An agent as Claude Desktop or Cursor would be: the SDK's real client with the agent token. */
export async function connectAgent(serve: Serve): Promise<Client> {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serve.endpointUrl), {
      requestInit: { headers: { Authorization: `Bearer ${serve.agentToken}` } },
    }),
  );
  return client;
}

/** The text of a tool result's content, joined. */
export function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? '').join('\n');
}

export interface UiSession {
  serve: Serve;
  context: BrowserContext;
  page: Page;
  /** What the page threw or logged as an error: tests expect none, a failure report prints them. */
  pageErrors: string[];
  /** Closes Chromium, then stops serve (which removes its data folder). */
  close(): Promise<void>;
}

/**
 * A real `toolbridge serve` with `serveArgs` and one page of real Chromium for it (light, 1280
 * wide). The page is not on the UI yet: a test of the sign-in itself goes there on its own.
 */
export async function openUi(
  options: { serveArgs?: string[]; height?: number; prepare?: (dataDir: string) => Promise<void> } = {},
): Promise<UiSession> {
  assertBuilt();
  const serve = await startServe(options.serveArgs, options.prepare);
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await serve.stop();
    throw error;
  });
  const close = async () => {
    await browser.close();
    await serve.stop();
  };
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: options.height ?? 860 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    return { serve, context, page, pageErrors, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** openUi, then the page signs in with the launch URL and shows the app. */
export async function openSignedIn(options: Parameters<typeof openUi>[0] = {}): Promise<UiSession> {
  const ui = await openUi(options);
  try {
    await ui.page.goto(ui.serve.uiUrl);
    await shown(ui.page.getByTestId('nav-servers'));
    return ui;
  } catch (error) {
    await ui.close();
    throw error;
  }
}

/**
 * An afterEach hook: when a test failed, a screenshot and what the page and the host said, to read
 * the failure without rerunning.
 */
export function reportFailure(name: string, session: () => UiSession | undefined) {
  return async (context: TestContext): Promise<void> => {
    if (context.task.result?.state !== 'fail') return;
    const ui = session();
    const shot = join(tmpdir(), `toolbridge-e2e-${name}-failure-${Date.now()}.png`);
    await ui?.page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    console.error(
      `e2e failure: screenshot ${shot}\npage errors: ${ui?.pageErrors.join('\n')}\nhost stderr: ${ui?.serve.stderr.join('\n')}`,
    );
  };
}

// playwright-core has no expect of its own: these wait with vitest's polling instead.
export const shown = (locator: Locator, timeout = 15_000) => locator.waitFor({ state: 'visible', timeout });
export const gone = (locator: Locator, timeout = 15_000) => locator.waitFor({ state: 'hidden', timeout });
export const textOf = (locator: Locator, timeout = 15_000) =>
  expect.poll(() => locator.textContent(), { timeout });
export const attributeOf = (locator: Locator, name: string, timeout = 15_000) =>
  expect.poll(() => locator.getAttribute(name), { timeout });

/** Clicks a view in the nav and waits until the nav marks it current. */
export async function navigate(page: Page, view: string): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  await attributeOf(page.getByTestId(`nav-${view}`), 'aria-current').toBe('page');
}
