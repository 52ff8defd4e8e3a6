/** The deployment's connectors by name (see CONNECTORS in docs/architecture.md). */
import type { Connector } from '../../application/ports/connector';
import type { ConnectorRegistry } from '../../application/ports/connector-registry';

export function connectorRegistry(connectors: readonly Connector[]): ConnectorRegistry {
  const byName = new Map(connectors.map((c) => [c.name, c]));
  if (byName.size !== connectors.length) throw new Error('Two connectors share a name');
  return { get: (name) => byName.get(name), all: () => connectors };
}
