import type { Environment, MerchantEvent, MerchantSettings } from './events';
import { protocolMappingOf, type ProtocolMapping } from './protocol-mapping';

export interface ExistingMerchant extends MerchantSettings {
  exists: true;
  protocolMapping: ProtocolMapping;
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
      const { registeredAt, protocolMapping, ...rest } = event.data;
      return { exists: true, ...rest, protocolMapping: protocolMappingOf(protocolMapping), registeredAt, updatedAt: registeredAt };
    }
    case 'MerchantSettingsChanged':
      if (!state.exists) return state;
      return {
        ...state,
        ...event.data.changes,
        protocolMapping:
          event.data.changes.protocolMapping === undefined
            ? state.protocolMapping
            : protocolMappingOf(event.data.changes.protocolMapping),
        updatedAt: event.data.changedAt,
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
