import type { ExistingSession } from '../../../domain/checkout/session-state';
import type { BrowserAttributes, MethodSnapshot, PayerSnapshot } from '../../../domain/payment/events';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { SaleCard } from '../../payments';
import type { PayerDestination } from '../payer-destination';
import type { FieldProblem, MethodFieldProblem } from '../problems';

/** A card (a wallet's decrypted one with the wallet as its method), or a method (a wallet's token in the virtual flow). */
export type Paying = { card: SaleCard; method?: MethodSnapshot } | { method: MethodSnapshot; walletToken?: string };

/** One more attempt on a session, with what was checked already: the session as read, how to pay and who pays. */
export interface StartAttempt {
  session: ExistingSession;
  /** The session's version as read: the attempt is recorded expecting it. */
  version: bigint | null;
  paying: Paying;
  payer: PayerSnapshot;
  correlationId: string;
  browser?: BrowserAttributes;
  /** False for the merchant's retry: the stored card is charged without the payer. */
  payerPresent?: boolean;
}

export type PayOutcome =
  | { kind: 'invalid'; problems: FieldProblem[] }
  /** An alternative method's fields the payer left out or got wrong, or a method that cannot be chosen (now). */
  | { kind: 'invalid_method'; method: string; problems: MethodFieldProblem[] }
  | { kind: 'done'; payment: ExistingPayment | null; next: PayerDestination };
