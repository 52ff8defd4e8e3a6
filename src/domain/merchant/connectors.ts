/** A merchant's connectors in routing order: its setting, or the sandbox for merchants from before the setting. */
export const DEFAULT_CONNECTORS: readonly string[] = ['sandbox'];

export const merchantConnectors = (merchant: { connectors?: readonly string[] }): readonly string[] =>
  merchant.connectors && merchant.connectors.length > 0 ? merchant.connectors : DEFAULT_CONNECTORS;
