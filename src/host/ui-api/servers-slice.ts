import type { UiApiSlice } from '../host-parts.js';

/** Servers: the one servers service answers (manage_connections calls it too). */
export const serversSlice: UiApiSlice<
  'serverService',
  | 'listServers'
  | 'addServer'
  | 'updateServer'
  | 'removeServer'
  | 'setServerEnabled'
  | 'restartServer'
  | 'authorizeServer'
  | 'reviewImport'
  | 'confirmImport'
> = ({ serverService }) => ({
  listServers: async () => serverService.listServers(),
  addServer: async (config) => serverService.addServer(config),
  updateServer: async (id, config) => serverService.updateServer(id, config),
  removeServer: async (id) => serverService.removeServer(id),
  setServerEnabled: async (id, enabled) => serverService.setServerEnabled(id, enabled),
  restartServer: async (id) => serverService.restartServer(id),
  authorizeServer: async (id) => serverService.authorizeServer(id),
  reviewImport: async (configText) => serverService.reviewImport(configText),
  confirmImport: async (reviewId) => serverService.confirmImport(reviewId),
});
