/** Merchants: their accounts and settings, with the check of the notification URLs they give. */
import { systemResolver } from '../adapters/http/dns-resolver';
import { tcpProbe } from '../adapters/http/tcp-probe';
import { decryptSecret, encryptSecret } from '../adapters/vault/secret-box';
import { NotificationUrlCheck } from '../application/callbacks/notification-url-check';
import { MerchantService } from '../application/merchant-service';
import type { ConnectorRegistry } from '../application/ports/connector-registry';
import { WALLET_METHODS } from '../domain/merchant/methods';
import type { Core } from './core';

export interface Merchants {
  merchants: MerchantService;
  notificationUrls: NotificationUrlCheck;
}

export function wireMerchants({ config, store, readModels, key, clock }: Core, connectors: ConnectorRegistry): Merchants {
  const notificationUrls = new NotificationUrlCheck({
    resolve: systemResolver,
    probe: tcpProbe,
    allowNonPublicAddresses: config.callbacks.allowNonPublicAddresses,
  });
  const merchants = new MerchantService({
    store,
    lookup: readModels,
    cipher: {
      encrypt: (plaintext) => encryptSecret(key, plaintext, 'merchant-password'),
      decrypt: (ciphertext) => decryptSecret(key, ciphertext, 'merchant-password'),
    },
    clock,
    environment: config.environment,
    notificationUrls,
    connectorNames: connectors.all().map((c) => c.name),
    methodNames: [...new Set([...connectors.all().flatMap((c) => c.capabilities.methods.filter((m) => m !== 'card')), ...WALLET_METHODS])],
  });
  return { merchants, notificationUrls };
}
