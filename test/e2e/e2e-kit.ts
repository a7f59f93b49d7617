import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';
import type { ServerConfig } from '../../src/api/ui-api.js';
import {
  type FixtureGateway,
  type FixtureGatewayOptions,
  startFixtureGateway,
} from '../fixtures/gateway/fixture-gateway.js';
import { linkGateway, type ScenarioTool, scenarioServer, writeSettings } from '../helpers/host-kit.js';
import { waitUntil } from '../helpers/wait.js';

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
  /** Stops serve and starts it again on the same data folder: a new port, launch URL and token. */
  restart(): Promise<void>;
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
  let run = await runServe(dataDir, extraArgs);
  const serve: Serve = {
    dataDir,
    ...run.info,
    async restart() {
      await run.stop();
      run = await runServe(dataDir, extraArgs);
      Object.assign(serve, run.info);
    },
    async stop() {
      await run.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return serve;
}

/** One `toolbridge serve` process on `dataDir`, once it printed its ui: line. */
async function runServe(
  dataDir: string,
  extraArgs: string[],
): Promise<{ info: Omit<Serve, 'dataDir' | 'restart' | 'stop'>; stop(): Promise<void> }> {
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

  await waitUntil(
    () => value('ui:') !== undefined || child.exitCode !== null,
    () => `toolbridge serve to print its ui: line (stderr:\n${stderr.join('\n')})`,
    60_000,
  );
  if (value('ui:') === undefined) throw new Error(`toolbridge serve exited early:\n${stderr.join('\n')}`);
  const uiUrl = value('ui:')!;
  const url = new URL(uiUrl);
  return {
    info: {
      uiUrl,
      endpointUrl: value('agent endpoint:')!,
      agentToken: value('agent token:')!,
      origin: url.origin,
      port: Number(url.port),
      stderr,
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** What the agent declares, and handlers for what servers ask it (set before it connects). */
export interface AgentOptions {
  name?: string;
  capabilities?: ClientCapabilities;
  prepare?: (client: Client) => void;
}

/** An agent as Claude Desktop or Cursor would be: the SDK's real client with the agent token. */
export async function connectAgent(serve: Serve, options: AgentOptions = {}): Promise<Client> {
  const client = new Client(
    { name: options.name ?? 'e2e-agent', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  options.prepare?.(client);
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
  options: {
    serveArgs?: string[];
    height?: number;
    prepare?: (dataDir: string) => Promise<void>;
    /** Install Playwright's clock before the page loads (it flows until a test pauses it). */
    clock?: boolean;
  } = {},
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
    if (options.clock === true) await page.clock.install();
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

export interface UiFixtureOptions {
  /** serve's `--policy`. @defaultValue the host's own default, ask */
  policy?: 'allow' | 'ask' | 'deny';
  /** The window's height; it is 1280 wide. @defaultValue 860 */
  height?: number;
  /**
   * Sign in with the launch URL and wait for the app before the tests; false leaves the page
   * blank, for a test of the sign-in itself. @defaultValue true
   */
  signIn?: boolean;
  /** Fixture-server scenarios the host starts with, by server id (written into the data folder). */
  scenarios?: Record<string, ScenarioTool[]>;
  /** Further servers the host starts with. With neither, serve starts its default servers. */
  servers?: ServerConfig[];
  /**
   * A fixture connector gateway for the tests; `linked` also gives serve its URL and token, as if
   * the person had signed in to it in Settings.
   */
  gateway?: FixtureGatewayOptions & { linked?: boolean };
  /** The agent, connected before the tests; false for none. @defaultValue the SDK client, no capabilities */
  agent?: AgentOptions | false;
  /** The page's timers run on Playwright's clock, for tests that pause and advance it. @defaultValue false */
  clock?: boolean;
}

/** One file's e2e setup, filled in once its beforeAll has run. */
export interface UiFixture {
  readonly session: UiSession;
  readonly serve: Serve;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly pageErrors: string[];
  readonly agent: Client;
  readonly gateway: FixtureGateway;
}

/**
 * The whole setup of an e2e file, as its hooks: the fixture gateway (if asked), a real `toolbridge
 * serve` with these servers and settings, real Chromium (signed in unless told not to) and the
 * agent; a failed test reports as reportFailure does; afterAll closes all of it. Call it at the top
 * of the file; the fields are there from the file's first beforeAll on.
 */
export function setUpUi(name: string, options: UiFixtureOptions = {}): UiFixture {
  let session: UiSession | undefined;
  let agent: Client | undefined;
  let gateway: FixtureGateway | undefined;

  beforeAll(async () => {
    if (options.gateway !== undefined) {
      const { linked: _, ...gatewayOptions } = options.gateway;
      gateway = await startFixtureGateway(gatewayOptions);
    }
    const open = options.signIn === false ? openUi : openSignedIn;
    session = await open({
      serveArgs: options.policy === undefined ? [] : ['--policy', options.policy],
      height: options.height,
      clock: options.clock,
      prepare: (dataDir) => prepareDataDir(dataDir, options, gateway),
    });
    if (options.agent !== false) agent = await connectAgent(session.serve, options.agent);
  });
  afterEach(reportFailure(name, () => session));
  afterAll(async () => {
    await agent?.close();
    await session?.close();
    await gateway?.close();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`setUpUi('${name}'): no ${what} (not asked for, or before beforeAll)`);
    return value;
  };
  return {
    get session() {
      return ready(session, 'session');
    },
    get serve() {
      return ready(session, 'session').serve;
    },
    get context() {
      return ready(session, 'session').context;
    },
    get page() {
      return ready(session, 'session').page;
    },
    get pageErrors() {
      return ready(session, 'session').pageErrors;
    },
    get agent() {
      return ready(agent, 'agent');
    },
    get gateway() {
      return ready(gateway, 'gateway');
    },
  };
}

/** Writes what the options ask of the data folder before serve starts; nothing when they ask nothing. */
async function prepareDataDir(
  dataDir: string,
  options: UiFixtureOptions,
  gateway: FixtureGateway | undefined,
): Promise<void> {
  const settings: Record<string, unknown> = {};
  const scenarios = Object.entries(options.scenarios ?? {});
  if (scenarios.length > 0 || options.servers !== undefined) {
    const fromScenarios = await Promise.all(
      scenarios.map(([id, tools]) => scenarioServer(dataDir, id, tools)),
    );
    settings.servers = [...fromScenarios, ...(options.servers ?? [])];
  }
  if (gateway !== undefined && options.gateway?.linked === true) {
    settings.connectors = await linkGateway(dataDir, gateway);
  }
  if (Object.keys(settings).length > 0) await writeSettings(dataDir, settings);
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
