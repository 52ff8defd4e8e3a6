/**
 * Timed-out attempts per URL, this process's and those other notifiers (or this one before a
 * restart) recorded in the read model: what decides whether a URL is blocked right now.
 */
import { blockedUntil } from '../../domain/callback-delivery/url-block';
import type { DueCallbackDeliveries } from '../ports/callback-deliveries-read-model';
import type { NotifierSettings } from './notifier-deps';

export class UrlTimeouts {
  /** Times (ms) of timed-out attempts per URL. */
  private readonly timeouts = new Map<string, number[]>();

  constructor(
    private readonly settings: NotifierSettings,
    private readonly queries: DueCallbackDeliveries,
  ) {}

  note(url: string, at: number): void {
    const list = this.timeouts.get(url) ?? [];
    list.push(at);
    this.timeouts.set(url, this.recent(list, at));
  }

  /** Timeouts recorded by other notifiers (or before a restart) count too. */
  async refresh(url: string, now: number): Promise<void> {
    const { windowMs, blockMs } = this.settings.blockPolicy;
    const since = new Date(now - windowMs - blockMs).toISOString();
    const recorded = (await this.queries.timeoutsSince(url, since)).map((iso) => Date.parse(iso));
    const merged = this.recent([...(this.timeouts.get(url) ?? []), ...recorded], now);
    if (merged.length) this.timeouts.set(url, merged);
    else this.timeouts.delete(url);
  }

  blockedUntil(url: string, now: number): number | null {
    const list = this.timeouts.get(url);
    return list ? blockedUntil(list, now, this.settings.blockPolicy) : null;
  }

  /** URLs blocked at `now`, with the time each block ends. */
  blocked(now: number): Array<{ url: string; until: string }> {
    const out: Array<{ url: string; until: string }> = [];
    for (const url of this.timeouts.keys()) {
      const until = this.blockedUntil(url, now);
      if (until !== null) out.push({ url, until: new Date(until).toISOString() });
    }
    return out;
  }

  private recent(list: number[], now: number): number[] {
    const horizon = now - this.settings.blockPolicy.windowMs - this.settings.blockPolicy.blockMs;
    return [...new Set(list.filter((t) => t >= horizon))];
  }
}
