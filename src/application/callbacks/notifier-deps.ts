/** What the notifier is built from and the settings it runs by. */
import type { UrlBlockPolicy } from '../../domain/callback-delivery/url-block';
import type { WorkerCheckpoint } from '../checkpoint-saves';
import type { MerchantAccount } from '../merchant-service';
import type { CallbackSender } from '../ports/callback-sender';
import type { DueCallbackDeliveries } from '../ports/callback-deliveries-read-model';
import type { Clock } from '../ports/clock';
import type { EventStore } from '../ports/event-store';
import type { Logger } from '../ports/logger';
import type { WithLogFields } from '../ports/log-context';

export const CALLBACK_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface NotifierSettings {
  timeoutMs: number;
  retryScheduleMs: readonly number[];
  blockPolicy: UrlBlockPolicy;
  /** How often due retries are looked for. */
  pollMs: number;
  /** Callbacks on the wire at once, over all merchants. */
  maxInFlight: number;
}

export type NotifierCheckpoint = WorkerCheckpoint;

/** Backoff between tries of work the database failed: doubling from `initialMs` up to `maxMs`. */
export interface RetryBackoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { initialMs: 100, maxMs: 30_000 };

export interface MerchantLookup {
  accountById(merchantId: string): Promise<MerchantAccount | undefined>;
}

export interface NotifierDeps {
  store: EventStore;
  merchants: MerchantLookup;
  queries: DueCallbackDeliveries;
  checkpoint: NotifierCheckpoint;
  sender: CallbackSender;
  clock: Clock;
  /**
   * Real time, for the X-Signature `t` a merchant checks against its own clock; the sandbox's
   * movable `clock` dates business events only. Default `clock`.
   */
  signingClock?: Clock;
  logger: Logger;
  settings: NotifierSettings;
  /** Default DEFAULT_RETRY_BACKOFF. */
  retry?: RetryBackoff;
  /** Lets the lines logged while a payment event's callback is scheduled and sent carry the request id that caused it. */
  withLogFields?: WithLogFields;
}
