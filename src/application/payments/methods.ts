/**
 * Alternative payment methods as the deployment's connectors offer them: which identifiers exist
 * at all (an unknown `brand` is 204011), which of a merchant's connectors take one (none: 204006),
 * and what its parameters are (the connector's catalogue entry), so every API that takes methods
 * (S2S APM now, Checkout `methods` later) asks the same questions the same way.
 */
import type { MethodDescription } from '../../domain/payment/method-fields';
import type { ConnectorRegistry } from '../ports/connector-registry';

/** Every method identifier some connector of the deployment offers (`card` is not a method here). */
export function offeredMethods(connectors: ConnectorRegistry): string[] {
  return [...new Set(connectors.all().flatMap((c) => c.capabilities.methods.filter((m) => m !== 'card')))];
}

/** The names of the candidate connectors (in their order) that offer `method`. */
export function connectorsOffering(connectors: ConnectorRegistry, candidates: readonly string[], method: string): string[] {
  return candidates.filter((name) => connectors.get(name)?.capabilities.methods.includes(method) ?? false);
}

/**
 * What `method` takes, as the first candidate connector offering it describes it; a connector that
 * describes none of its methods takes no parameters for them.
 */
export function describeMethod(connectors: ConnectorRegistry, candidates: readonly string[], method: string): MethodDescription | null {
  for (const name of connectorsOffering(connectors, candidates, method)) {
    const connector = connectors.get(name)!;
    return connector.describeMethod?.(method) ?? { method, kind: method, fields: [] };
  }
  return null;
}
