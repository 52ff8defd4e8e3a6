/**
 * A merchant's connectors in routing order: its setting, or the default route for merchants that
 * never set one: the card sandbox, then the sandbox's alternative-method provider (cards route only
 * to the first, alternative methods only to the second, so each payment's route is what it was).
 */
export const DEFAULT_CONNECTORS: readonly string[] = ['sandbox', 'sandbox-apm'];

export const merchantConnectors = (merchant: { connectors?: readonly string[] }): readonly string[] =>
  merchant.connectors && merchant.connectors.length > 0 ? merchant.connectors : DEFAULT_CONNECTORS;
