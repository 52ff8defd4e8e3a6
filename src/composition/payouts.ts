/** Payouts (`CREDIT2VIRTUAL`), operators' top-ups and the payout balances. */
import { workerCheckpoint } from '../../projections/worker-checkpoint';
import { PayoutService } from '../application/payouts';
import type { ConnectorRegistry } from '../application/ports/connector-registry';
import type { Core } from './core';

export function wirePayouts({ config, store, clock, logger, readDb }: Core, connectors: ConnectorRegistry): PayoutService {
  // Payouts spend the merchant's payout balance; the feeder (started with the projector) keeps it fed from the log.
  return new PayoutService({
    store,
    connectors,
    clock,
    logger,
    baseUrl: config.publicBaseUrl,
    feederCheckpoint: workerCheckpoint(readDb, 'payout-balance-feeder'),
  });
}
