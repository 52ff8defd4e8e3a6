/** What the operators' dashboard reads and does, from the gateway's services and reports. */
import { allProjectionNames } from '../../../projections';
import type { AuthThrottle } from '../../application/auth-throttle/auth-throttle';
import type { DashboardDeps } from '../../api/dashboard/routes';
import { LatestCheckpoint } from '../../application/audit/latest-checkpoint';
import { VerifyJob } from '../../application/audit/verify-job';
import { requestRedelivery } from '../../application/callbacks/redelivery';
import { paymentHistory } from '../../application/payment-history';
import { chainReport } from '../../application/schedules/chain-report';
import { paymentStreamId } from '../../domain/payment/events';
import type { Gateway, GatewayHttpParts } from '../gateway';
import { derivedSecret } from '../keys';

export function dashboardDeps(gateway: Gateway, parts: GatewayHttpParts, throttle: AuthThrottle): DashboardDeps {
  const { config, adminToken, store, rawStore, readModels, clock, notifier, merchants } = gateway;
  const latestCheckpoint = new LatestCheckpoint(rawStore);
  // Named once: listing them builds every projection module.
  const everyProjection = allProjectionNames();
  return {
    environment: config.environment,
    adminToken,
    // Derived like the other secrets, so every API process opens every other's sessions.
    sessionKey: derivedSecret(parts.key, 'dashboard-sessions'),
    publicBaseUrl: config.publicBaseUrl,
    throttle,
    // Real time: moving the sandbox's clock must not end or extend a session.
    now: () => parts.realClock.now().getTime(),
    businessNow: () => clock.now(),
    payments: parts.paymentSearch,
    history: (paymentId: string) => paymentHistory(store, paymentId),
    storedEvents: (paymentId: string) => rawStore.readStream(paymentStreamId(paymentId)),
    callbacks: parts.callbackOverview,
    callbackBlockPolicy: config.callbacks.blockPolicy,
    redeliver: (deliveryId: string, requestedBy: string) => requestRedelivery({ store, clock, notifier }, deliveryId, requestedBy),
    merchants,
    wallets: gateway.wallets.settings,
    connectorNames: parts.connectors.all().map((c) => c.name),
    ledger: parts.ledgerReports,
    chains: readModels.schedules,
    chainReport: (chainId: string) => chainReport(store, chainId),
    health: {
      head: () => rawStore.headPosition(),
      checkpoints: () => readModels.checkpoints(),
      blockedUrls: () => notifier.blockedUrls(),
      lastAuditCheckpoint: () => latestCheckpoint.read(),
    },
    audit: new VerifyJob({ store: rawStore, allowUnchainedHistory: config.eventStore === 'eventstoredb' }),
    // The dashboard shows every read model, the ledger and the callback deliveries among them.
    catchUp: () => readModels.catchUpToHead(2000, everyProjection),
  };
}
