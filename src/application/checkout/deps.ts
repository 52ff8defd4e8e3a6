import type { MerchantAccount } from '../merchant-service';
import type { PaymentService } from '../payments';
import type { CardVault } from '../ports/card-vault';
import type { Clock } from '../ports/clock';
import type { EventStore } from '../ports/event-store';
import type { PendingCardData } from '../ports/pending-card-data';
import type { ScheduleService } from '../schedules/schedule-service';
import type { SessionStream } from './session-stream';

/** What the gateway gives the Checkout use cases. */
export interface CheckoutServiceDeps {
  store: EventStore;
  payments: PaymentService;
  merchants: { accountById(merchantId: string): Promise<MerchantAccount | undefined> };
  vault: CardVault;
  clock: Clock;
  baseUrl: string;
  /** Key of the hosted payment fields tokens. */
  tokenSecret: Buffer;
  pendingCards: PendingCardData;
  /** The rule a `recurring_init` session's schedule_id names, read when the payer pays. */
  schedules: Pick<ScheduleService, 'info'>;
}

/** What every Checkout use case may use: the gateway's dependencies and the session stream, bound once. */
export interface CheckoutDeps extends CheckoutServiceDeps {
  sessions: SessionStream;
}
