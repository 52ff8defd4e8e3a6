/**
 * Timed-out attempts per URL, this process's and those other notifiers (or this one before a
 * restart) recorded in the read model: what decides whether a URL is blocked right now.
 */
import { blockedUntil } from '../../domain/callback-delivery/url-block';
import type { DueCallbackDeliveries } from '../ports/callback-deliveries-read-model';
import type { NotifierSettings } from './notifier-deps';

/** Which attempt timed out: a timeout is told apart by this, never by its time. */
export interface AttemptRef {
  deliveryId: string;
  attempt: number;
}

/** Times (ms) of one URL's timed-out attempts, by attempt. */
type TimeoutsByAttempt = Map<string, number>;

const keyOf = (deliveryId: string, attempt: number): string => `${deliveryId}#${attempt}`;

export class UrlTimeouts {
  private readonly timeouts = new Map<string, TimeoutsByAttempt>();

  constructor(
    private readonly settings: NotifierSettings,
    private readonly queries: DueCallbackDeliveries,
  ) {}

  note(url: string, attempt: AttemptRef, at: number): void {
    const times = this.timeouts.get(url) ?? new Map();
    times.set(keyOf(attempt.deliveryId, attempt.attempt), at);
    this.keepRecent(url, times, at);
  }

  /**
   * Timeouts recorded by other notifiers (or before a restart) count too. One this notifier noted
   * and the read model holds as well counts once, being the same attempt.
   */
  async refresh(url: string, now: number): Promise<void> {
    const { windowMs, blockMs } = this.settings.blockPolicy;
    const since = new Date(now - windowMs - blockMs).toISOString();
    const times: TimeoutsByAttempt = new Map(this.timeouts.get(url));
    for (const t of await this.queries.timeoutsSince(url, since)) times.set(keyOf(t.delivery_id, t.attempt), Date.parse(t.finished_at));
    this.keepRecent(url, times, now);
  }

  blockedUntil(url: string, now: number): number | null {
    const times = this.timeouts.get(url);
    return times ? blockedUntil([...times.values()], now, this.settings.blockPolicy) : null;
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

  /** Keeps the timeouts that can still block at `now` or later; a URL with none is forgotten. */
  private keepRecent(url: string, times: TimeoutsByAttempt, now: number): void {
    const horizon = now - this.settings.blockPolicy.windowMs - this.settings.blockPolicy.blockMs;
    for (const [key, at] of times) if (at < horizon) times.delete(key);
    if (times.size) this.timeouts.set(url, times);
    else this.timeouts.delete(url);
  }
}
