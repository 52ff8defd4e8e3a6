/**
 * The delivery decider: when a callback may be sent, what an HTTP outcome means, when it is tried
 * again and when it has failed for good. Pure: the notifier supplies the time and the outcome.
 * Each command has its own decide function; this one only picks it.
 */
import type { CallbackCommand } from './commands';
import { decideRecordResult } from './decide-record-result';
import { decideRedelivery } from './decide-redelivery';
import { decideSchedule } from './decide-schedule';
import { decideStartAttempt } from './decide-start-attempt';
import type { CallbackEvent } from './events';
import type { DeliveryState } from './state';

export function decideCallback(command: CallbackCommand, state: DeliveryState): CallbackEvent[] {
  switch (command.type) {
    case 'ScheduleCallback':
      return decideSchedule(command, state);
    case 'StartCallbackAttempt':
      return decideStartAttempt(command, state);
    case 'RecordCallbackResult':
      return decideRecordResult(command, state);
    case 'RequestRedelivery':
      return decideRedelivery(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
