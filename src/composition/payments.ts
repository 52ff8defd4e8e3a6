/** Payments, and the sandbox's simulated APM provider that decides some of them. */
import { SandboxApmConnector } from '../adapters/connectors/sandbox-apm';
import { SandboxApmProvider } from '../adapters/connectors/sandbox-apm/provider';
import { PaymentService } from '../application/payments';
import type { CardVault } from '../application/ports/card-vault';
import type { WalletService } from '../application/wallets';
import type { Connectors } from './connectors';
import type { Core } from './core';

export interface Payments {
  payments: PaymentService;
  /** Present where `sandbox-apm` is configured (`sandbox decide`). */
  sandboxApm: SandboxApmProvider | null;
}

export function wirePayments({ config, store, clock, logger }: Core, connectors: Connectors, vault: CardVault, wallets: WalletService): Payments {
  const payments = new PaymentService({ store, connectors: connectors.registry, vault, clock, logger, baseUrl: config.publicBaseUrl, wallets: wallets.tokens });
  const sandboxApm = connectors.configured.some((c) => c instanceof SandboxApmConnector)
    ? new SandboxApmProvider({ secret: connectors.sandboxApmSecret, payments, now: () => clock.now() })
    : null;
  return { payments, sandboxApm };
}
