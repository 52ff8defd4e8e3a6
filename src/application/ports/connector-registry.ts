/**
 * The connectors a deployment has, by name. Payments record the name of the connector that
 * handled them, so every follow-up, return and reconciliation goes back to the same one.
 */
import type { Connector } from './connector';

export interface ConnectorRegistry {
  /** Undefined for a name this deployment does not have (a payment of a connector since removed). */
  get(name: string): Connector | undefined;
  /** Every configured connector, in the order they were configured. */
  all(): readonly Connector[];
}
