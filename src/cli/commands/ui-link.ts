import { ToolbridgeError } from '../../base/errors.js';
import { DataDirLock } from '../../host/data-dir-lock.js';
import { UiLinkKey } from '../../host/ui-link-key.js';
import { resolveDataDir } from '../../store/settings-file.js';
import { UI_LINK_PATH } from '../../web/web-ui.js';
import { type CliCommand, parseArgs, usageError } from '../command.js';

const FLAGS = { 'data-dir': 'string' } as const;

export const uiLinkCommand: CliCommand = {
  name: 'ui-link',
  summary: 'print a fresh ui: link for the running toolbridge serve, without restarting it',
  help: `Usage:
  toolbridge ui-link [--data-dir DIR]

A ui: link signs one browser in once. To open the UI again (another browser, a cleared cookie),
this asks the toolbridge serve running on the data folder for a new link and prints it:
  ui: http://127.0.0.1:<port>/#secret=<one-time secret>
Pages already open stay signed in; an earlier unused link stops working.

Options:
  --data-dir DIR      the running serve's data folder (default $XDG_CONFIG_HOME/toolbridge)
`,
  async run(args, io) {
    const { flags, positionals } = parseArgs('ui-link', args, FLAGS);
    if (positionals.length > 0) throw usageError('ui-link', `unexpected argument "${positionals[0]}".`);
    const dataDir = resolveDataDir(flags['data-dir'] === undefined ? {} : { dataDir: flags['data-dir'] });
    const holder = await DataDirLock.read(dataDir);
    const key = await UiLinkKey.read(dataDir);
    if (holder?.endpointUrl === undefined || key === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        holder === undefined
          ? `No toolbridge serve is running on the data folder ${dataDir}. Start it with \`toolbridge serve\`, which prints a ui: link.`
          : `The Toolbridge using ${dataDir} (pid ${holder.pid}) hands out no ui: links: it is the desktop app, or still starting. Open the app's window, or try again in a moment.`,
      );
    }
    const url = new URL(UI_LINK_PATH, holder.endpointUrl);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });
    } catch (error) {
      throw new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `Could not reach toolbridge serve at ${url.origin}. Is it still running?`,
        { cause: error },
      );
    }
    const body = (await response.json().catch(() => undefined)) as { url?: unknown } | undefined;
    if (!response.ok || typeof body?.url !== 'string') {
      throw new ToolbridgeError(
        'INTERNAL',
        `toolbridge serve at ${url.origin} refused to issue a link (HTTP ${response.status}). Restart serve if this keeps happening.`,
      );
    }
    io.stdout(`ui: ${body.url}\n`);
    return 0;
  },
};
