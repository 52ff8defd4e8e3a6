/**
 * The HTTP API of a built gateway: every route, with the services it calls. The composition root
 * loads this module the first time a gateway's app is asked for, so the threads and roles that
 * serve no HTTP (the notifier's and the workers' threads, the projector and scheduler roles) load
 * neither the HTTP stack nor the routes.
 */
import type Ajv from 'ajv';
import type Koa from 'koa';
import { SandboxConnector } from './adapters/connectors/sandbox';
import { registerAdminRoutes } from './api/admin/routes';
import { createApp } from './api/app';
import { registerAuditRoutes } from './api/audit/routes';
import { registerCheckoutApiRoutes } from './api/checkout/routes';
import { registerDeviceWalletRoutes } from './api/checkout-page/device-wallet-routes';
import { registerCheckoutPageRoutes } from './api/checkout-page/routes';
import { registerDashboardRoutes } from './api/dashboard/routes';
import { registerFrontDoor } from './api/front-door';
import { registerHealthRoute } from './api/health';
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
import { signedCheckpointsAfter } from './application/audit/checkpoint-history';
import { LatestSignedCheckpoint } from './application/audit/proofs';
import { AuthThrottle } from './application/auth-throttle/auth-throttle';
import type { Gateway, GatewayHttpParts } from './composition/gateway';
import { adminRoutes } from './composition/http/admin-routes';
import { dashboardDeps } from './composition/http/dashboard';
import type { Route } from './composition/http/route';
import { sandboxWalletSheet } from './composition/http/sandbox-wallet-sheet';
import { publicKeyPem } from './domain/audit/signed-checkpoint';

export function buildGatewayApp(gateway: Gateway, parts: GatewayHttpParts): Koa {
  const { config, logger, metrics, adminToken } = gateway;
  // Real time, never the sandbox's movable clock: moving that must not lift a lockout.
  const authThrottle = new AuthThrottle(config.authFailures, { clock: parts.realClock, logger });
  return createApp({
    logger,
    trustProxy: config.trustProxy,
    adminToken,
    authThrottle,
    metrics,
    routes: [
      ...entryRoutes(gateway, authThrottle),
      ...merchantRoutes(gateway, parts, authThrottle),
      ...sandboxRoutes(gateway, parts),
      ...payerDeviceRoutes(gateway),
      ...operatorRoutes(gateway, parts, authThrottle),
    ],
  });
}

/** The front door, and the metrics where they have no port of their own. */
function entryRoutes({ config, metrics, adminToken }: Gateway, throttle: AuthThrottle): Route[] {
  return [
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
        registerMetricsRoute(router, { metrics, tokens: [config.metrics.token ?? adminToken], throttle });
      }
    },
  ];
}

/** What merchants and their payers call: S2S, Checkout, the hosted page and fields, returns and acquirers' notifications. */
function merchantRoutes(gateway: Gateway, parts: GatewayHttpParts, throttle: AuthThrottle): Route[] {
  const { config, merchants, payments, payouts, schedules, checkout, wallets, clock, readModels } = gateway;
  const { notificationUrls } = parts;
  const queries = s2sStatusQueries(readModels);
  const environment = config.environment;
  const s2sDeps = (ajv: Ajv): S2sDeps => ({ merchants, payments, schedules, payouts, queries, clock, environment, ajv, notificationUrls, throttle });
  return [
    (router, ajv) => registerS2sRoutes(router, s2sDeps(ajv)),
    // Described from the same allowlist and schemas the S2S route validates with.
    (router, ajv) => registerOpenApiRoutes(router, { baseUrl: config.publicBaseUrl, environment, s2sActions: s2sActions(s2sDeps(ajv)) }),
    (router, ajv) =>
      registerCheckoutApiRoutes(router, { merchants, payments, schedules, checkout, readModels, clock, environment, ajv, notificationUrls, throttle }),
    (router) =>
      registerCheckoutPageRoutes(router, {
        checkout,
        baseUrl: config.publicBaseUrl,
        clock,
        // The hosted page's simulated wallet sheet exists in the sandbox only: elsewhere the device makes tokens.
        ...(environment === 'sandbox' ? { walletSheet: sandboxWalletSheet(config.dataDir, clock, merchants, wallets) } : {}),
      }),
    (router) =>
      registerDeviceWalletRoutes(router, {
        baseUrl: config.publicBaseUrl,
        pageModel: (id) => checkout.pageModel(id),
        clientKeyOf: async (id) => (await merchants.accountById(id))?.clientKey,
        device: wallets.device,
      }),
    (router, ajv) => registerHostedFieldsRoutes(router, { checkout, baseUrl: config.publicBaseUrl, ajv, throttle }),
    (router) => registerPayerReturnRoutes(router, { payments, checkout, merchants, baseUrl: config.publicBaseUrl }),
    (router) => registerNotificationRoutes(router, { payments, connectorNames: parts.connectors.all().map((c) => c.name), throttle }),
  ];
}

/** The sandbox's simulated provider and acquirer pages, each only where its connector is configured. */
function sandboxRoutes({ config, payments, checkout, merchants, sandboxApm }: Gateway, parts: GatewayHttpParts): Route[] {
  return [
    (router) => {
      if (sandboxApm) registerSandboxProviderRoutes(router, { provider: sandboxApm, secret: parts.sandboxApmSecret, baseUrl: config.publicBaseUrl });
    },
    (router) => {
      if (parts.connectors.get('sandbox') instanceof SandboxConnector) {
        registerSandboxSimulatorRoutes(router, { payments, checkout, merchants, sandboxSecret: parts.sandboxSecret, baseUrl: config.publicBaseUrl });
      }
    },
  ];
}

/** What the payer's device asks for: the wallets' domain association and the SDK's pay session. */
function payerDeviceRoutes({ config, checkout, merchants, wallets }: Gateway): Route[] {
  return [
    (router) => registerWalletDomainAssociationRoute(router, { domainAssociationFor: (host) => wallets.settings.domainAssociationFor(host) }),
    (router) =>
      registerPaySessionRoutes(router, {
        environment: config.environment,
        sessionByToken: (token) => checkout.sessionByToken(token),
        session: (id) => checkout.session(id),
        merchantById: (id) => merchants.byId(id),
        walletBrands: (session) => checkout.walletBrands(session),
      }),
  ];
}

/** The audit's public proofs, health, the `/admin` API and the dashboard. */
function operatorRoutes(gateway: Gateway, parts: GatewayHttpParts, throttle: AuthThrottle): Route[] {
  const { store, readModels, clock, adminToken, auditSigner, rawStore } = gateway;
  const latestSigned = new LatestSignedCheckpoint(rawStore, auditSigner.publicKey);
  return [
    (router) =>
      registerAuditRoutes(router, {
        publicKeyPem: publicKeyPem(auditSigner.publicKey),
        keyId: auditSigner.keyId,
        latest: () => latestSigned.read(),
        history: (after, limit) => signedCheckpointsAfter(rawStore, auditSigner.publicKey, after, limit),
      }),
    (router) => registerHealthRoute(router, { store, readModels, sandboxClock: clock === parts.sandboxClock ? parts.sandboxClock : null }),
    (router, ajv) => registerAdminRoutes(router, ajv, { adminToken }, adminRoutes(gateway, parts)),
    (router) => registerDashboardRoutes(router, dashboardDeps(gateway, parts, throttle)),
  ];
}
