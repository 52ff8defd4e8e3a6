import type { Environment, MerchantEvent, MerchantSettings } from './events';

export interface ExistingMerchant extends MerchantSettings {
  exists: true;
  merchantId: string;
  environment: Environment;
  clientKey: string;
  merchantKey: string;
  passwordCiphertext: string;
  registeredAt: string;
  updatedAt: string;
}

export type MerchantState = { exists: false } | ExistingMerchant;

export const initialMerchantState = (): MerchantState => ({ exists: false });

export function evolveMerchant(state: MerchantState, event: MerchantEvent): MerchantState {
  switch (event.type) {
    case 'MerchantRegistered': {
      const { registeredAt, ...rest } = event.data;
      return { exists: true, ...rest, registeredAt, updatedAt: registeredAt };
    }
    case 'MerchantSettingsChanged':
      if (!state.exists) return state;
      return { ...state, ...event.data.changes, updatedAt: event.data.changedAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
