import type { CatalogServerView } from '../../api/ui-api.js';
import {
  catalogProgram,
  fillCatalogValue,
  loadMcpCatalog,
  type McpCatalogEntry,
  type McpCatalogInput,
} from '../../servers/mcp-catalog.js';
import type { UiApiSlice } from '../host-parts.js';

/** Servers: the one servers service answers (manage_connections calls it too). */
export const serversSlice: UiApiSlice<
  'serverService' | 'dataDir',
  | 'listServers'
  | 'addServer'
  | 'updateServer'
  | 'removeServer'
  | 'setServerEnabled'
  | 'restartServer'
  | 'authorizeServer'
  | 'reviewImport'
  | 'confirmImport'
  | 'listCatalogServers'
> = ({ serverService, dataDir }) => ({
  listServers: async () => serverService.listServers(),
  addServer: async (config) => serverService.addServer(config),
  updateServer: async (id, config) => serverService.updateServer(id, config),
  removeServer: async (id) => serverService.removeServer(id),
  setServerEnabled: async (id, enabled) => serverService.setServerEnabled(id, enabled),
  restartServer: async (id) => serverService.restartServer(id),
  authorizeServer: async (id) => serverService.authorizeServer(id),
  reviewImport: async (configText) => serverService.reviewImport(configText),
  confirmImport: async (reviewId) => serverService.confirmImport(reviewId),
  listCatalogServers: async () => loadMcpCatalog().map((entry) => catalogServerView(entry, dataDir)),
});

/** An entry as the catalog panel shows it: what runs, and every value with `{dataDir}` filled in. */
export function catalogServerView(entry: McpCatalogEntry, dataDir: string): CatalogServerView {
  const { bin: _bin, ...rest } = entry;
  const fill = (input: McpCatalogInput): McpCatalogInput => ({
    ...input,
    ...(input.value === undefined ? {} : { value: fillCatalogValue(input.value, dataDir) }),
    ...(input.default === undefined ? {} : { default: fillCatalogValue(input.default, dataDir) }),
  });
  return {
    ...rest,
    ...catalogProgram(entry),
    arguments: entry.arguments.map(fill),
    env: entry.env.map(fill),
  };
}
