/**
 * The HTTP API of a built gateway: every route, with the services it calls. The composition root
 * loads this module the first time a gateway's app is asked for, so the threads and roles that
 * serve no HTTP (the notifier's and the workers' threads, the projector and scheduler roles) load
 * neither the HTTP stack nor the routes.
 */
import { createHmac } from 'node:crypto';
import type Ajv from 'ajv';
import type Koa from 'koa';
import { allProjectionNames } from '../projections';
import type { CallbackQueries } from '../projections/callback-deliveries/queries';
import { CALLBACK_DELIVERIES_PROJECTION } from '../projections/callback-deliveries/module';
import { LEDGER_PROJECTION } from '../projections/ledger/module';
import type { LedgerReportQueries } from '../projections/ledger/queries';
import type { PaymentQueries } from '../projections/payments/queries';
import { SandboxConnector } from './adapters/connectors/sandbox';
import { SHEET_CARDS, isSheetCard, simulatedWalletSheet } from './adapters/wallets/simulated-sheet';
import { registerCallbackAdminRoutes } from './api/admin/callbacks-route';
import { chainRoute } from './api/admin/chain-route';
import { registerClockAdminRoutes } from './api/admin/clock-route';
import { historyRoute } from './api/admin/history-route';
import { registerLedgerAdminRoutes } from './api/admin/ledger-route';
import { registerAdminRoutes, type AdminRouteRegistrar } from './api/admin/routes';
import { createApp } from './api/app';
import { registerCheckoutApiRoutes } from './api/checkout/routes';
import { registerCheckoutPageRoutes, type WalletSheetDeps } from './api/checkout-page/routes';
import { registerDashboardRoutes } from './api/dashboard/routes';
import { registerFrontDoor } from './api/front-door';
import { registerHealthRoute } from './api/health';
import { registerAuditRoutes } from './api/audit/routes';
import { registerHostedFieldsRoutes } from './api/hosted-fields/routes';
import { registerMetricsRoute } from './api/metrics/metrics-route';
import { registerNotificationRoutes } from './api/notifications/routes';
import { registerOpenApiRoutes } from './api/openapi/routes';
import { registerPayerReturnRoutes } from './api/payer-return/routes';
import { s2sActions } from './api/s2s/actions';
import { registerS2sRoutes, type S2sDeps } from './api/s2s/post-route';
import { s2sStatusQueries } from './api/s2s/status-queries';
import { registerSandboxProviderRoutes } from './api/sandbox-simulator/provider-routes';
import { registerSandboxSimulatorRoutes } from './api/sandbox-simulator/routes';
import { registerPaySessionRoutes } from './api/sdk/pay-session-routes';
import { registerWalletDomainAssociationRoute } from './api/wallets/domain-association-route';
import { registerDeviceWalletRoutes } from './api/checkout-page/device-wallet-routes';
import { VerifyJob } from './application/audit/verify-job';
import { LatestCheckpoint } from './application/audit/latest-checkpoint';
import { LatestSignedCheckpoint } from './application/audit/proofs';
import { signedCheckpointsAfter } from './application/audit/checkpoint-history';
import { publicKeyPem } from './domain/audit/signed-checkpoint';
import { AuthThrottle } from './application/auth-throttle/auth-throttle';
import type { NotificationUrlCheck } from './application/callbacks/notification-url-check';
import { requestRedelivery } from './application/callbacks/redelivery';
import type { SandboxClock } from './application/clock/sandbox-clock';
import type { MerchantService } from './application/merchant-service';
import { paymentHistory } from './application/payment-history';
import type { Clock } from './application/ports/clock';
import type { ConnectorRegistry } from './application/ports/connector-registry';
import { chainReport } from './application/schedules/chain-report';
import type { WalletService } from './application/wallets';
import type { Gateway, GatewayHttpParts } from './composition/gateway';
import { paymentStreamId } from './domain/payment/events';

export function buildGatewayApp(gateway: Gateway, parts: GatewayHttpParts): Koa {
  const { config, logger, metrics, adminToken, store, rawStore, readModels } = gateway;
  const { merchants, payments, payouts, schedules, checkout, wallets, clock, testClock, notifier, sandboxApm } = gateway;
  const { key, realClock, sandboxClock, connectors, notificationUrls, callbackOverview, ledgerReports, paymentSearch, sandboxSecret, sandboxApmSecret } = parts;
  const queries = s2sStatusQueries(readModels);
  const connectorNames = connectors.all().map((c) => c.name);
  // Real time, never the sandbox's movable clock: moving that must not lift a lockout.
  const authThrottle = new AuthThrottle(config.authFailures, { clock: realClock, logger });
  // Each operator feature adds its `/admin` routes here.
  const adminRoutes: AdminRouteRegistrar[] = [
    (router) =>
      registerCallbackAdminRoutes(router, {
        store,
        // A listing of up to a thousand deliveries still takes milliseconds: not on this thread.
        queries: callbackOverview,
        notifier,
        clock,
        catchUp: () => readModels.catchUpToHead(2000, [CALLBACK_DELIVERIES_PROJECTION]),
      }),
    (router) => registerLedgerAdminRoutes(router, { ledger: ledgerReports, catchUp: () => readModels.catchUpToHead(2000, [LEDGER_PROJECTION]) }),
    historyRoute({ store }),
    chainRoute({ store }),
    (router) => registerClockAdminRoutes(router, { control: testClock, clock: sandboxClock }),
  ];

  const latestCheckpoint = new LatestCheckpoint(rawStore);
  const latestSigned = new LatestSignedCheckpoint(rawStore, gateway.auditSigner.publicKey);
  // Named once: listing them builds every projection module.
  const everyProjection = allProjectionNames();
  const dashboardDeps = {
    environment: config.environment,
    adminToken,
    // Derived like the other secrets, so every API process opens every other's sessions.
    sessionKey: createHmac('sha256', key).update('dashboard-sessions').digest(),
    publicBaseUrl: config.publicBaseUrl,
    throttle: authThrottle,
    // Real time: moving the sandbox's clock must not end or extend a session.
    now: () => realClock.now().getTime(),
    businessNow: () => clock.now(),
    payments: paymentSearch,
    history: (paymentId: string) => paymentHistory(store, paymentId),
    storedEvents: (paymentId: string) => rawStore.readStream(paymentStreamId(paymentId)),
    callbacks: callbackOverview,
    callbackBlockPolicy: config.callbacks.blockPolicy,
    redeliver: (deliveryId: string, requestedBy: string) => requestRedelivery({ store, clock, notifier }, deliveryId, requestedBy),
    merchants,
    wallets: wallets.settings,
    connectorNames,
    ledger: ledgerReports,
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
  const s2sDeps = (ajv: Ajv): S2sDeps => ({
    merchants,
    payments,
    schedules,
    payouts,
    queries,
    clock,
    environment: config.environment,
    ajv,
    notificationUrls,
    throttle: authThrottle,
  });
  return createApp({
    logger,
    trustProxy: config.trustProxy,
    adminToken,
    authThrottle,
    metrics,
    routes: [
      (router) =>
        registerFrontDoor(router, {
          environment: config.environment,
          baseUrl: config.publicBaseUrl,
          metrics: config.metrics.port === null
            ? { path: '/metrics', note: 'Prometheus text format; Authorization: Bearer <METRICS_TOKEN, or the admin token while none is set>' }
            : { path: null, note: `served on a port of their own (METRICS_PORT=${config.metrics.port}), not here` },
        }),
      // With METRICS_PORT the metrics have a listener of their own (server.ts) and none here.
      (router) => {
        if (config.metrics.port === null) {
          registerMetricsRoute(router, { metrics, tokens: [config.metrics.token ?? adminToken], throttle: authThrottle });
        }
      },
      (router, ajv) => registerS2sRoutes(router, s2sDeps(ajv)),
      // Described from the same allowlist and schemas the S2S route validates with.
      (router, ajv) =>
        registerOpenApiRoutes(router, { baseUrl: config.publicBaseUrl, environment: config.environment, s2sActions: s2sActions(s2sDeps(ajv)) }),
      (router, ajv) =>
        registerCheckoutApiRoutes(router, {
          merchants,
          payments,
          schedules,
          checkout,
          readModels,
          clock,
          environment: config.environment,
          ajv,
          notificationUrls,
          throttle: authThrottle,
        }),
      (router) =>
        registerCheckoutPageRoutes(router, {
          checkout,
          baseUrl: config.publicBaseUrl,
          clock,
          // The hosted page's simulated wallet sheet exists in the sandbox only: elsewhere the device makes tokens.
          ...(config.environment === 'sandbox' ? { walletSheet: sandboxWalletSheet(config.dataDir, clock, merchants, wallets) } : {}),
        }),
      (router) => registerDeviceWalletRoutes(router, { baseUrl: config.publicBaseUrl, pageModel: (id) => checkout.pageModel(id), clientKeyOf: async (id) => (await merchants.accountById(id))?.clientKey, device: wallets.device }),
      (router, ajv) => registerHostedFieldsRoutes(router, { checkout, baseUrl: config.publicBaseUrl, ajv, throttle: authThrottle }),
      (router) => registerPayerReturnRoutes(router, { payments, checkout, merchants, baseUrl: config.publicBaseUrl }),
      (router) => registerNotificationRoutes(router, { payments, connectorNames, throttle: authThrottle }),
      // The sandbox APM provider's page exists only where that provider does.
      (router) => {
        if (sandboxApm) registerSandboxProviderRoutes(router, { provider: sandboxApm, secret: sandboxApmSecret, baseUrl: config.publicBaseUrl });
      },
      // The sandbox acquirer's own pages exist only where that acquirer does.
      (router) => {
        if (connectors.get('sandbox') instanceof SandboxConnector) {
          registerSandboxSimulatorRoutes(router, { payments, checkout, merchants, sandboxSecret, baseUrl: config.publicBaseUrl });
        }
      },
      (router) => registerWalletDomainAssociationRoute(router, { domainAssociationFor: (host) => wallets.settings.domainAssociationFor(host) }),
      (router) =>
        registerPaySessionRoutes(router, {
          environment: config.environment,
          sessionByToken: (token) => checkout.sessionByToken(token),
          session: (id) => checkout.session(id),
          merchantById: (id) => merchants.byId(id),
          walletBrands: (session) => checkout.walletBrands(session),
        }),
      (router) =>
        registerAuditRoutes(router, {
          publicKeyPem: publicKeyPem(gateway.auditSigner.publicKey),
          keyId: gateway.auditSigner.keyId,
          latest: () => latestSigned.read(),
          history: (after, limit) => signedCheckpointsAfter(rawStore, gateway.auditSigner.publicKey, after, limit),
        }),
      (router) => registerHealthRoute(router, { store, readModels, sandboxClock: clock === sandboxClock ? sandboxClock : null }),
      (router, ajv) => registerAdminRoutes(router, ajv, { adminToken }, adminRoutes),
      (router) => registerDashboardRoutes(router, dashboardDeps),
    ],
  });
}

/** The sandbox's simulated wallet sheet for the hosted page: its cards, and tokens for the session's merchant. */
function sandboxWalletSheet(dataDir: string, clock: Clock, merchants: MerchantService, wallets: WalletService): WalletSheetDeps {
  const mint = simulatedWalletSheet({ dataDir, now: () => clock.now(), settings: wallets.settings });
  return {
    cards: Object.entries(SHEET_CARDS).map(([id, { label }]) => ({ id, label })),
    async token(choice) {
      const merchant = await merchants.byId(choice.merchantId);
      if (!merchant || !isSheetCard(choice.card)) throw new Error('the wallet sheet was asked for an unknown merchant or card');
      return mint({ merchantId: merchant.merchantId, clientKey: merchant.clientKey, wallet: choice.wallet, card: choice.card, ...(choice.panOnly ? { authMethod: 'PAN_ONLY' as const } : {}) });
    },
  };
}
