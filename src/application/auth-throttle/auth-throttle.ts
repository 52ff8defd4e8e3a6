/**
 * Limits on failed authentication (a wrong hash, an unknown key, a wrong admin or session token),
 * so that guessing a secret online is hopeless, without letting anyone who knows a merchant's
 * public key lock that merchant out. Good requests are never counted.
 *
 * Three counters, each a token bucket that locks for one window when it runs empty:
 * - **subject + address**: one merchant (its S2S and Checkout keys share a password, so they share
 *   the count), the admin token, or the session tokens, from one address. Once locked, *every*
 *   request from that address for that subject is refused, valid or not: a refusal that depended
 *   on the guess being wrong would tell the guesser when it was right.
 * - **address**: failures from one address across subjects (trying many keys). Locks the address
 *   for everything, except subjects it has authenticated for within the last day: an address that
 *   holds a merchant's password has nothing to guess, and a shared egress address keeps working
 *   for the merchants behind it.
 * - **subject** (merchants only): a high ceiling across addresses, against guessing from many
 *   addresses at once. Locks the merchant for addresses that have not authenticated for it within
 *   the last day; its own servers, which have, keep working. Logged as an error: someone is
 *   attacking that merchant.
 *
 * In memory, per process: N API processes allow N times the limits.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { AuthThrottleSettings } from '../../domain/auth-throttle/throttle-settings';
import { FailureCounters } from './failure-counters';

/** Who a secret was presented for: a merchant (by id, whichever key named it), the admin API, a Checkout session token. */
export type AuthSubject = { kind: 'merchant'; merchantId: string } | { kind: 'admin' } | { kind: 'session-token' };

export interface ThrottleRefusal {
  /** Whole seconds until the lock that refused ends (at least 1). */
  retryAfterSeconds: number;
  counter: 'subject-ip' | 'ip' | 'subject';
}

/** How long a successful authentication exempts its address from locks others' failures cause. */
export const PROVEN_FOR_MS = 24 * 60 * 60_000;

/** Addresses and keys are client-supplied text; capped so a name costs bounded memory. */
const MAX_NAME_PART = 128;

function part(text: string): string {
  return text.length > MAX_NAME_PART ? text.slice(0, MAX_NAME_PART) : text;
}

function subjectName(subject: AuthSubject): string {
  return subject.kind === 'merchant' ? `merchant:${part(subject.merchantId)}` : subject.kind;
}

export class AuthThrottle {
  private readonly bySubjectIp: FailureCounters | null;
  private readonly byIp: FailureCounters | null;
  private readonly bySubject: FailureCounters | null;
  /** `subject|address` → when it last authenticated. */
  private readonly proven: LRUCache<string, number>;

  constructor(
    readonly settings: AuthThrottleSettings,
    private readonly deps: { clock: Clock; logger: Logger },
  ) {
    const counters = (limit: number) => (limit > 0 ? new FailureCounters({ limit, windowMs: settings.windowMs }, settings.maxTracked) : null);
    this.bySubjectIp = counters(settings.subjectIpLimit);
    this.byIp = counters(settings.ipLimit);
    this.bySubject = counters(settings.subjectLimit);
    this.proven = new LRUCache({ max: settings.maxTracked });
  }

  get enabled(): boolean {
    return this.bySubjectIp !== null || this.byIp !== null || this.bySubject !== null;
  }

  /**
   * Whether to hear a request at all, before its secret is looked at. `subject` is null when the
   * key names nobody. Null means go ahead; a refusal names the lock and how long it lasts.
   */
  admit(ip: string, subject: AuthSubject | null): ThrottleRefusal | null {
    if (!this.enabled) return null;
    const now = this.now();
    const address = part(ip);
    let refusal: ThrottleRefusal | null = null;
    const consider = (counter: ThrottleRefusal['counter'], remainingMs: number) => {
      if (remainingMs <= 0) return;
      const retryAfterSeconds = Math.max(1, Math.ceil(remainingMs / 1000));
      if (!refusal || retryAfterSeconds > refusal.retryAfterSeconds) refusal = { retryAfterSeconds, counter };
    };
    const pair = subject ? `${subjectName(subject)}|${address}` : null;
    if (pair) consider('subject-ip', this.bySubjectIp?.lockRemaining(pair, now) ?? 0);
    // Others' failures never lock out an address that has shown it holds this subject's secret.
    if (!pair || !this.isProven(pair, now)) {
      consider('ip', this.byIp?.lockRemaining(address, now) ?? 0);
      if (subject?.kind === 'merchant') consider('subject', this.bySubject?.lockRemaining(subjectName(subject), now) ?? 0);
    }
    return refusal;
  }

  /**
   * A secret that did not match (`subject` known), or a key that names nobody (`subject` null);
   * `requestId` names the request in the lines of the locks it sets.
   */
  failed(ip: string, subject: AuthSubject | null, requestId?: string): void {
    if (!this.enabled) return;
    const now = this.now();
    const address = part(ip);
    const request = requestId === undefined ? {} : { requestId };
    const fields = { ...request, ip: address, subject: subject ? subjectName(subject) : 'unknown key', windowMs: this.settings.windowMs };
    if (subject) {
      if (this.bySubjectIp?.fail(`${subjectName(subject)}|${address}`, now)) {
        this.deps.logger.warn('failed authentications locked a subject for one address', { ...fields, limit: this.settings.subjectIpLimit });
      }
      if (subject.kind === 'merchant' && this.bySubject?.fail(subjectName(subject), now)) {
        // Many addresses guessing one merchant's secret: an attack worth waking someone for.
        this.deps.logger.error('failed authentications from many addresses locked a merchant to its proven addresses', {
          ...request,
          subject: fields.subject,
          limit: this.settings.subjectLimit,
          windowMs: this.settings.windowMs,
        });
      }
    }
    if (this.byIp?.fail(address, now)) {
      this.deps.logger.warn('failed authentications locked an address', { ...fields, limit: this.settings.ipLimit });
    }
  }

  /** The request proved it holds the subject's secret. */
  succeeded(ip: string, subject: AuthSubject): void {
    if (!this.enabled) return;
    this.proven.set(`${subjectName(subject)}|${part(ip)}`, this.now());
  }

  private isProven(pair: string, now: number): boolean {
    const at = this.proven.peek(pair);
    return at !== undefined && now - at < PROVEN_FOR_MS;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}
