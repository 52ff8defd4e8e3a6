import { DomainError } from '../errors';
import type { RequestRedelivery } from './commands';
import type { CallbackEvent } from './events';
import type { DeliveryState } from './state';

export function decideRedelivery(command: RequestRedelivery, state: DeliveryState): CallbackEvent[] {
  if (!state.exists) throw new DomainError('callback_not_found', 'No such callback delivery');
  if (state.status === 'in_flight') {
    throw new DomainError('callback_in_flight', 'An attempt is in progress; ask again when it has finished');
  }
  return [
    {
      type: 'CallbackRedeliveryRequested',
      data: { deliveryId: state.deliveryId, requestedBy: command.data.requestedBy, requestedAt: command.data.now },
    },
  ];
}
