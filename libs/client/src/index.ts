import { BillingClient } from './billing.js';
import { CatalogClient } from './catalog.js';
import { GatewayClient } from './gateway.js';
import { LedgerClient } from './ledger.js';
import { PaletteClient } from './palette.js';
import { PulseClient } from './pulse.js';
import type { Transport } from './transport.js';

export * from './transport.js';
export * from './pulse.js';
export * from './ledger.js';
export * from './catalog.js';
export * from './palette.js';
export * from './billing.js';
export * from './gateway.js';

/** One client per service, over one transport. */
export function createClient(transport: Transport) {
  return {
    gateway: new GatewayClient(transport),
    ledger: new LedgerClient(transport),
    catalog: new CatalogClient(transport),
    palette: new PaletteClient(transport),
    billing: new BillingClient(transport),
    pulse: new PulseClient(transport),
  };
}

export type PlatformClient = ReturnType<typeof createClient>;
