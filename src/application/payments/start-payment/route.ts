/**
 * Which of the merchant's connectors a payment goes to, and in what order it may cascade. A chain's
 * later charges stay with the connector that holds the chain (its card-on-file reference is that
 * connector's); anything else follows the merchant's list, filtered by what each connector can do.
 */
import { connectorOf } from '../../../domain/payment/state';
import { routeFor, type RouteRequirements } from '../../../domain/routing/route';
import type { ConnectorRegistry } from '../../ports/connector-registry';
import type { InternalSale } from '../types';

/** The connectors a request may go to, in order, before their capabilities are asked. */
export function candidatesOf(connectors: ConnectorRegistry, request: Pick<InternalSale, 'chain' | 'connectors'>): readonly string[] {
  if (request.chain) return [connectorOf(request.chain)];
  return request.connectors ?? [connectors.all()[0]?.name ?? 'sandbox'];
}

/** The route, or `no_capable_connector` when none of the candidates can take the payment. */
export function routeOf(connectors: ConnectorRegistry, candidates: readonly string[], requirements: RouteRequirements): string[] {
  const known = candidates.flatMap((name) => {
    const connector = connectors.get(name);
    return connector ? [{ name, capabilities: connector.capabilities }] : [];
  });
  return routeFor(requirements, known);
}
