/**
 * Is a merchant's `notification_url` one we can deliver to? Refused (HTTP 400, spec rule 4 of Errors):
 * anything but http(s), URLs carrying credentials, hosts that do not resolve, and, where private
 * networks are off limits (production), an IP literal in any non-public range (in any IPv6
 * spelling) or a name with any non-public address among its answers. "Any", not "only": the sender
 * refuses such a name at every attempt (which answer comes first is the name owner's choice), so
 * accepting it here would only turn a clear 400 into callbacks that never arrive.
 *
 * "Unreachable" (the spec's other refusal) is decided by a TCP connect to the URL's port, when a
 * probe is configured: refused when every address the host has definitely turns the connection away
 * (refused, no route to the host or network) within a short budget; reachable as soon as one
 * accepts. Nothing is sent over the connection. A lookup or a connect that merely takes long is not
 * a refusal: payment creation must stay fast, so after the budget the URL is accepted and delivery
 * retries take care of a host that is really gone. Answers are cached like the lookups (a verdict
 * that the URL is fine for 10 minutes, a refusal for 1), so a merchant sending the same URL on
 * every payment pays for one lookup and one connect.
 */
import { isIP } from 'node:net';
import { isNonPublicAddress } from '../../domain/callback-delivery/network-address';
import { HostNotFoundError, type ConnectProbe, type HostResolver } from '../ports/host-lookups';

export const UNREACHABLE = 'The URL cannot be reached: its host refuses connections on that port.';

export const PUBLIC_ADDRESS_REQUIRED = 'The URL must point to a public address.';

export interface NotificationUrlCheckOptions {
  resolve: HostResolver;
  allowNonPublicAddresses: boolean;
  lookupBudgetMs?: number;
  /** Without one, reachability is not checked (only the name and where it points). */
  probe?: ConnectProbe;
  /** For all the connects of one URL together; default 1500 ms. */
  connectBudgetMs?: number;
  now?: () => number;
}

/** At most this many of a host's addresses are tried. */
const MAX_PROBED_ADDRESSES = 3;

const POSITIVE_TTL_MS = 10 * 60_000;
const NEGATIVE_TTL_MS = 60_000;

interface Cached {
  verdict: string | null;
  /** The host's addresses, when the verdict came from a lookup that found them. */
  addresses?: string[];
  expires: number;
}

export class NotificationUrlCheck {
  /** By host name: the lookup. */
  private readonly cache = new Map<string, Cached>();
  /** By `host port`: the connect. */
  private readonly reachability = new Map<string, Cached>();
  private readonly budgetMs: number;
  private readonly connectBudgetMs: number;
  private readonly now: () => number;

  constructor(private readonly options: NotificationUrlCheckOptions) {
    this.budgetMs = options.lookupBudgetMs ?? 1500;
    this.connectBudgetMs = options.connectBudgetMs ?? 1500;
    this.now = options.now ?? Date.now;
  }

  /** Why the URL is refused, or null when it is acceptable. */
  problem(raw: string): Promise<string | null> {
    return this.judge(raw, true);
  }

  private async judge(raw: string, withConnect: boolean): Promise<string | null> {
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
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const reachable = (addresses: string[]) => (withConnect ? this.reachable(host, port, addresses) : Promise.resolve(null));
    if (isIP(host)) return this.addressProblem([host]) ?? (await reachable([host]));
    if (host === 'localhost' || host.endsWith('.localhost')) return this.addressProblem(['127.0.0.1']) ?? (await reachable(['127.0.0.1', '::1']));

    let found = this.cache.get(host);
    if (!found || found.expires <= this.now()) {
      const looked = await this.lookup(host);
      // Could not tell in time: accepted, not cached.
      if (looked === undefined) return null;
      found = remember(this.cache, host, { ...looked, expires: this.now() + (looked.verdict === null ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
    }
    if (found.verdict !== null || !found.addresses) return found.verdict;
    return reachable(found.addresses);
  }

  /**
   * For a merchant's default URL: only where it points. A name that does not resolve (yet), or not
   * in time, is accepted: the merchant may still be setting up DNS, and delivery checks again.
   */
  async destinationProblem(raw: string): Promise<string | null> {
    const problem = await this.judge(raw, false);
    return problem === PUBLIC_ADDRESS_REQUIRED ? problem : null;
  }

  /** undefined: could not tell in time (accepted, not cached). */
  private async lookup(host: string): Promise<{ verdict: string | null; addresses?: string[] } | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.budgetMs);
    });
    try {
      const answer = await Promise.race([this.options.resolve(host), timeout]);
      if (answer === 'timeout') return undefined;
      if (answer.length === 0) return { verdict: 'The host of the URL does not resolve.' };
      return { verdict: this.addressProblem(answer), addresses: answer };
    } catch (error) {
      if (error instanceof HostNotFoundError) return { verdict: 'The host of the URL does not resolve.' };
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Null once one of `addresses` accepts a connection on `port`, UNREACHABLE when every one tried
   * turned it away; null too when that could not be told within the budget (not cached then).
   */
  private async reachable(host: string, port: number, addresses: string[]): Promise<string | null> {
    const probe = this.options.probe;
    if (!probe) return null;
    const key = `${host} ${port}`;
    const cached = this.reachability.get(key);
    if (cached && cached.expires > this.now()) return cached.verdict;
    const deadline = this.now() + this.connectBudgetMs;
    let refusals = 0;
    const tried = addresses.slice(0, MAX_PROBED_ADDRESSES);
    for (const address of tried) {
      const left = deadline - this.now();
      if (left <= 0) break;
      const answer = await probe(address, port, left);
      if (answer === 'open') {
        remember(this.reachability, key, { verdict: null, expires: this.now() + POSITIVE_TTL_MS });
        return null;
      }
      if (answer === 'refused') refusals++;
    }
    if (refusals < tried.length) return null;
    remember(this.reachability, key, { verdict: UNREACHABLE, expires: this.now() + NEGATIVE_TTL_MS });
    return UNREACHABLE;
  }

  private addressProblem(addresses: string[]): string | null {
    if (this.options.allowNonPublicAddresses) return null;
    return addresses.some(isNonPublicAddress) ? PUBLIC_ADDRESS_REQUIRED : null;
  }
}

function remember(cache: Map<string, Cached>, key: string, entry: Cached): Cached {
  if (cache.size > 10_000) cache.clear();
  cache.set(key, entry);
  return entry;
}
