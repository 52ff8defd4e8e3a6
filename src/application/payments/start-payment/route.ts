/**
 * Which of the merchant's connectors a payment goes to, and in what order it may cascade. A chain's
 * later charges stay with the connector that holds the chain (its card-on-file reference is that
 * connector's); anything else follows the merchant's list, filtered by what each connector can do.
 */
import { connectorOf } from '../../../domain/payment/state';
import { routeFor, type RouteRequirements } from '../../../domain/routing/route';
import type { ConnectorRegistry } from '../../ports/connector-registry';
import type { InternalSale } from '../types';

export function routeOf(connectors: ConnectorRegistry, request: InternalSale, requirements: RouteRequirements): string[] {
  const names = request.chain ? [connectorOf(request.chain)] : request.connectors ?? [connectors.all()[0]?.name ?? 'sandbox'];
  const candidates = names.flatMap((name) => {
    const connector = connectors.get(name);
    return connector ? [{ name, capabilities: connector.capabilities }] : [];
  });
  return routeFor(requirements, candidates);
}
