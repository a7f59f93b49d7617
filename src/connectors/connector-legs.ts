import type { ConnectorLegs } from '../bridge/types.js';
import type { GatewayClient } from './gateway-client.js';
import { describeConnectors, searchConnectors } from './merge.js';

export interface GatewayConnectorLegsOptions {
  /** Told when a search group holds twin slugs (the prefixed one is kept). @defaultValue console.warn */
  warn?: (message: string) => void;
}

/** The bridge's connector legs over the gateway client: one search or schemas request per bridge call. */
export function gatewayConnectorLegs(
  client: GatewayClient,
  options: GatewayConnectorLegsOptions = {},
): ConnectorLegs {
  const warn = options.warn ?? console.warn;
  return {
    search: (queries, { signal }) => searchConnectors(client, queries, { signal, warn }),
    describe: (names, { signal }) => describeConnectors(client, names, { signal }),
  };
}
