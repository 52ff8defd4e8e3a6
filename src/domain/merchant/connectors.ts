/**
 * A merchant's connectors in routing order: its setting, or the default route for merchants that
 * never set one: the card sandbox, the sandbox's alternative-method provider, then its wallet
 * provider (cards, and wallet cards the gateway decrypted, route only to the first; alternative
 * methods only to the second; wallet tokens in the virtual flow only to the third).
 */
export const DEFAULT_CONNECTORS: readonly string[] = ['sandbox', 'sandbox-apm', 'sandbox-wallet'];

export const merchantConnectors = (merchant: { connectors?: readonly string[] }): readonly string[] =>
  merchant.connectors && merchant.connectors.length > 0 ? merchant.connectors : DEFAULT_CONNECTORS;
