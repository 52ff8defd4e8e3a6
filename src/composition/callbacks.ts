/** Callbacks to merchants: the notifier and what sends them. */
import { workerCheckpoint } from '../../projections/worker-checkpoint';
import { HttpCallbackSender } from '../adapters/http/callback-sender';
import { withLogFields } from '../adapters/logging/log-context';
import { Notifier } from '../application/callbacks/notifier';
import type { MerchantService } from '../application/merchant-service';
import type { Clocks } from './clocks';
import type { Core } from './core';

export interface Callbacks {
  /** Built in every process (operators redeliver through it); started only by the roles that deliver. */
  notifier: Notifier;
  /** Stops the notifier and closes the sender this module made. */
  close(): Promise<void>;
}

export function wireCallbacks({ config, options, store, readModels, readDb, clock, logger }: Core, clocks: Clocks, merchants: MerchantService): Callbacks {
  const sender = options.callbackSender ?? new HttpCallbackSender({ allowNonPublicAddresses: config.callbacks.allowNonPublicAddresses });
  const notifier = new Notifier({
    store,
    merchants,
    queries: readModels.callbacks,
    checkpoint: workerCheckpoint(readDb, 'notifier'),
    sender,
    clock,
    signingClock: clocks.sandboxClock.real,
    logger,
    settings: config.callbacks,
    withLogFields,
  });
  return {
    notifier,
    async close() {
      await notifier.stop();
      // A sender given by the caller is the caller's to close.
      if (!options.callbackSender) sender.close();
    },
  };
}
