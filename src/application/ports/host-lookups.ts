/** What the notification URL check asks the network: the addresses of a name, and whether a port accepts connections. */

export type HostResolver = (hostname: string) => Promise<string[]>;

/** Thrown by a resolver when the name definitely does not exist. */
export class HostNotFoundError extends Error {}

/**
 * A TCP connect to `address:port` that is closed again at once: `open` when it was accepted,
 * `refused` when the host definitely turned it away (refused, no route), `unknown` when it could
 * not tell within `timeoutMs`.
 */
export type ConnectProbe = (address: string, port: number, timeoutMs: number) => Promise<'open' | 'refused' | 'unknown'>;
