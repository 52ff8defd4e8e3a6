import type { MethodStep } from '../method-step';
import type { PayerDestination } from '../payer-destination';

/** The payer's one-time code, as the connector took it. */
export type OtpOutcome = { kind: 'wrong_code'; step: MethodStep } | { kind: 'done'; next: PayerDestination };
