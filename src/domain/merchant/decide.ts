import { DomainError } from '../errors';
import type { Environment, MerchantEvent, MerchantSettings } from './events';
import type { MerchantState } from './state';

export type MerchantCommand =
  | {
      type: 'RegisterMerchant';
      data: MerchantSettings & {
        merchantId: string;
        environment: Environment;
        clientKey: string;
        merchantKey: string;
        passwordCiphertext: string;
        now: string;
      };
    }
  | { type: 'ChangeMerchantSettings'; data: { changes: Partial<MerchantSettings>; now: string } };

export function decideMerchant(command: MerchantCommand, state: MerchantState): MerchantEvent[] {
  switch (command.type) {
    case 'RegisterMerchant': {
      if (state.exists) throw new DomainError('merchant_exists', `Merchant ${state.merchantId} already exists`);
      const { now, ...data } = command.data;
      return [{ type: 'MerchantRegistered', data: { ...data, registeredAt: now } }];
    }
    case 'ChangeMerchantSettings': {
      if (!state.exists) throw new DomainError('merchant_not_found', 'Merchant not found');
      // Only real differences become an event, so the history shows what an operator changed.
      const changes: Partial<MerchantSettings> = {};
      for (const [key, value] of Object.entries(command.data.changes) as [keyof MerchantSettings, unknown][]) {
        if (value === undefined) continue;
        if (JSON.stringify(state[key]) !== JSON.stringify(value)) (changes as Record<string, unknown>)[key] = value;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'MerchantSettingsChanged', data: { merchantId: state.merchantId, changes, changedAt: command.data.now } }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
