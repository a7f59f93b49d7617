import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ToolbridgeApi } from '../../src/api/ui-api.js';
import type { ConnectionState } from '../api/ws-client.js';
import { type ActivitySlice, createActivitySlice } from './activity-slice.js';
import { type AgentsSlice, createAgentsSlice } from './agents-slice.js';
import { type CardsSlice, createCardsSlice } from './cards-slice.js';
import { type CatalogSlice, createCatalogSlice } from './catalog-slice.js';
import { type ConnectionsSlice, createConnectionsSlice } from './connections-slice.js';
import { createFirstRunSlice, type FirstRunSlice, type FirstRunStorage } from './first-run-slice.js';
import { createPlaygroundSlice, type PlaygroundSlice } from './playground-slice.js';
import { createPoliciesSlice, type PoliciesSlice } from './policies-slice.js';
import { createServersSlice, type ServersSlice } from './servers-slice.js';
import { createSettingsSlice, type SettingsSlice } from './settings-slice.js';
import { createUiSlice, type UiSlice } from './ui-slice.js';

export type AppState = ServersSlice &
  CatalogSlice &
  CardsSlice &
  ActivitySlice &
  SettingsSlice &
  AgentsSlice &
  PlaygroundSlice &
  PoliciesSlice &
  ConnectionsSlice &
  FirstRunSlice &
  UiSlice;

export type AppStore = StoreApi<AppState>;

/**
 * The renderer's single store. The API comes in as a parameter (no module singleton), so tests
 * hand in a fake and the app hands in whichever transport it picked.
 */
export function createAppStore(
  api: ToolbridgeApi,
  connection: ConnectionState = 'open',
  storage?: FirstRunStorage,
): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createServersSlice(api)(...args),
    ...createCatalogSlice(api)(...args),
    ...createCardsSlice(api)(...args),
    ...createActivitySlice(api)(...args),
    ...createSettingsSlice(api)(...args),
    ...createAgentsSlice(api)(...args),
    ...createPlaygroundSlice(api)(...args),
    ...createPoliciesSlice(api)(...args),
    ...createConnectionsSlice(api)(...args),
    ...createFirstRunSlice(storage)(...args),
    ...createUiSlice(connection)(...args),
  }));
}
