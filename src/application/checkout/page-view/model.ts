import type { ExistingSession } from '../../../domain/checkout/session-state';
import type { MethodStep } from '../method-step';
import type { PageMethod } from '../page-methods';
import type { PayerDestination } from '../payer-destination';

export interface CheckoutPageModel {
  session: ExistingSession;
  merchantName: string;
  /**
   * `form`: collect card data or a method's fields (again, after a decline); `processing`: an
   * attempt awaits the acquirer; `method_step`: the page shows an alternative method's step
   * (`step`) while its provider decides; otherwise `next` says where the payer goes.
   */
  view: 'form' | 'processing' | 'method_step' | 'elsewhere';
  next?: PayerDestination;
  /** What the payer may choose from, in the session's order. */
  methods: PageMethod[];
  /** The method of the latest attempt (`card` for a card), null before the first: the page offers it again first. */
  lastMethod?: string | null;
  step?: MethodStep;
  /** The latest attempt was declined: the acquirer's reason, when it gave one, is shown above the form. */
  lastDecline: { reason: string | null } | null;
  attemptsLeft: number;
  /** What the form asks for. */
  needs: { cardNumber: boolean; cvv: boolean; billingState: boolean };
  /** A `credit` of a stored card: its mask (the payer confirms the expiry). */
  storedCardMask: string | null;
  /** Prefilled cardholder / payee name. */
  holderName: string;
}
