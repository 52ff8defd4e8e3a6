/** The deployment's connectors: those configured by name, or given, each timed wherever a payment calls it. */
import { connectorRegistry } from '../adapters/connectors/registry';
import { SandboxConnector } from '../adapters/connectors/sandbox';
import { SandboxApmMobileMoneyConnector } from '../adapters/connectors/sandbox-apm';
import { SandboxBConnector } from '../adapters/connectors/sandbox-b';
import { SandboxWalletConnector } from '../adapters/connectors/sandbox-wallet';
import { measuredConnector } from '../adapters/metrics/measured-connector';
import type { Connector } from '../application/ports/connector';
import type { ConnectorRegistry } from '../application/ports/connector-registry';
import type { ConnectorName, GatewayConfig } from '../config';
import type { Clock } from '../application/ports/clock';
import type { Core } from './core';
import { derivedSecret } from './keys';

export interface Connectors {
  /** As configured, before they are measured: the sandbox's own pages look for their connector among them. */
  configured: Connector[];
  /** What payments call: acquirer latency by connector, operation and outcome. */
  registry: ConnectorRegistry;
  /** Signs the sandbox acquirer's payer links. */
  sandboxSecret: Buffer;
  /** Signs the sandbox APM provider's links and notifications (docs/apm.md#how-the-sandbox-decides). */
  sandboxApmSecret: Buffer;
}

function connectorNamed(name: ConnectorName, config: GatewayConfig, clock: Clock, secrets: Pick<Connectors, 'sandboxSecret' | 'sandboxApmSecret'>): Connector {
  switch (name) {
    case 'sandbox':
      return new SandboxConnector({
        secret: secrets.sandboxSecret,
        simulatorBaseUrl: config.publicBaseUrl,
        descriptor: config.sandboxDescriptor,
        latencyMs: config.sandboxLatencyMs,
        now: () => clock.now(),
      });
    case 'sandbox-b':
      return new SandboxBConnector({ now: () => clock.now() });
    case 'sandbox-apm':
      // With the mobile-money methods: it pays out (CREDIT2VIRTUAL) as well as collecting.
      return new SandboxApmMobileMoneyConnector({ secret: secrets.sandboxApmSecret, simulatorBaseUrl: config.publicBaseUrl, now: () => clock.now() });
    case 'sandbox-wallet':
      return new SandboxWalletConnector();
    default: {
      const unknown: never = name;
      return unknown;
    }
  }
}

export function wireConnectors({ config, options, clock, key, metrics }: Core): Connectors {
  // Derived, so every process sharing the vault key signs and verifies the same links.
  const secrets = { sandboxSecret: derivedSecret(key, 'sandbox-payer-links'), sandboxApmSecret: derivedSecret(key, 'sandbox-apm-provider') };
  const configured = options.connectors ?? config.connectors.map((name) => connectorNamed(name, config, clock, secrets));
  return { configured, registry: connectorRegistry(configured.map((connector) => measuredConnector(connector, metrics))), ...secrets };
}
