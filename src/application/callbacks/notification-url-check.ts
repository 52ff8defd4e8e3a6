/**
 * Is a merchant's `notification_url` one we can deliver to? Refused (HTTP 400, spec rule 4 of Errors):
 * anything but http(s), URLs carrying credentials, hosts that do not resolve, and, where private
 * networks are off limits (production), an IP literal in any non-public range (in any IPv6
 * spelling) or a name with any non-public address among its answers. "Any", not "only": the sender
 * refuses such a name at every attempt (which answer comes first is the name owner's choice), so
 * accepting it here would only turn a clear 400 into callbacks that never arrive. A lookup
 * that merely takes long is not a refusal: payment creation must stay fast, so after a short budget
 * the URL is accepted and delivery retries take care of a host that is really gone. Answers are
 * cached, so a merchant sending the same URL on every payment pays for one lookup.
 */
import { isIP } from 'node:net';
import { isNonPublicAddress } from '../../domain/callback-delivery/network-address';

export type HostResolver = (hostname: string) => Promise<string[]>;

export const PUBLIC_ADDRESS_REQUIRED = 'The URL must point to a public address.';

/** Thrown by a resolver when the name definitely does not exist. */
export class HostNotFoundError extends Error {}

export interface NotificationUrlCheckOptions {
  resolve: HostResolver;
  allowNonPublicAddresses: boolean;
  lookupBudgetMs?: number;
  now?: () => number;
}

const POSITIVE_TTL_MS = 10 * 60_000;
const NEGATIVE_TTL_MS = 60_000;

export class NotificationUrlCheck {
  private readonly cache = new Map<string, { verdict: string | null; expires: number }>();
  private readonly budgetMs: number;
  private readonly now: () => number;

  constructor(private readonly options: NotificationUrlCheckOptions) {
    this.budgetMs = options.lookupBudgetMs ?? 1500;
    this.now = options.now ?? Date.now;
  }

  /** Why the URL is refused, or null when it is acceptable. */
  async problem(raw: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'This value is not a valid URL.';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must use http or https.';
    if (url.username || url.password) return 'The URL must not contain credentials.';
    const bracketed = url.hostname.startsWith('[') && url.hostname.endsWith(']');
    const host = (bracketed ? url.hostname.slice(1, -1) : url.hostname).toLowerCase();
    if (!host) return 'This value is not a valid URL.';
    if (isIP(host)) return this.addressProblem([host]);
    if (host === 'localhost' || host.endsWith('.localhost')) return this.addressProblem(['127.0.0.1']);

    const cached = this.cache.get(host);
    if (cached && cached.expires > this.now()) return cached.verdict;
    const verdict = await this.lookup(host);
    if (verdict !== undefined) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(host, { verdict, expires: this.now() + (verdict === null ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
      return verdict;
    }
    return null;
  }

  /**
   * For a merchant's default URL: only where it points. A name that does not resolve (yet), or not
   * in time, is accepted: the merchant may still be setting up DNS, and delivery checks again.
   */
  async destinationProblem(raw: string): Promise<string | null> {
    const problem = await this.problem(raw);
    return problem === PUBLIC_ADDRESS_REQUIRED ? problem : null;
  }

  /** undefined: could not tell in time (accepted, not cached). */
  private async lookup(host: string): Promise<string | null | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.budgetMs);
    });
    try {
      const answer = await Promise.race([this.options.resolve(host), timeout]);
      if (answer === 'timeout') return undefined;
      if (answer.length === 0) return 'The host of the URL does not resolve.';
      return this.addressProblem(answer);
    } catch (error) {
      if (error instanceof HostNotFoundError) return 'The host of the URL does not resolve.';
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private addressProblem(addresses: string[]): string | null {
    if (this.options.allowNonPublicAddresses) return null;
    return addresses.some(isNonPublicAddress) ? PUBLIC_ADDRESS_REQUIRED : null;
  }
}
