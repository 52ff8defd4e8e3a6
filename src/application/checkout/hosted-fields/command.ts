import type { ExistingSession } from '../../../domain/checkout/session-state';
import type { BrowserAttributes } from '../../../domain/payment/events';
import type { HostedFieldsRefusal } from '../problems';

/** The merchant's processing request (`POST /api/v1/processing/{purchase,debit}/card`), as the API read it. */
export interface ProcessingRequest {
  /** The cardholder's name: the card frames do not ask for it. */
  name: string;
  email?: string;
  birthDay?: string;
  billing?: ExistingSession['billingAddress'];
  browser?: BrowserAttributes;
  callerIp: string;
}

/** A hosted payment fields processing request that cannot be processed; the API words the refusal. */
export class HostedFieldsError extends Error {
  constructor(readonly refusal: HostedFieldsRefusal) {
    super(`Hosted payment fields request refused: ${refusal.problem}`);
    this.name = 'HostedFieldsError';
  }
}
