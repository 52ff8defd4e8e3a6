/** The payment stream's command handler, bound once: use cases speak of payment ids and commands. */
import { paymentDecider } from '../../domain/payment/decider';
import { paymentStreamId, type PaymentEvent } from '../../domain/payment/events';
import type { PaymentCommand } from '../../domain/payment/commands';
import type { PaymentState } from '../../domain/payment/state';
import { commandHandler, type StreamHandler } from '../command-handler';
import type { EventStore } from '../ports/event-store';

export type PaymentStream = StreamHandler<PaymentCommand, PaymentState, PaymentEvent>;

export const paymentStream = (store: EventStore): PaymentStream => commandHandler(store, paymentStreamId, paymentDecider);
