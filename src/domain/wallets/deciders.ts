/**
 * Deciders of the wallet settings stream and of a domain's claim. Both are plain: the settings
 * arrive validated and encrypted, and the one rule a stream enforces is its own (at most 99
 * domains; a domain belongs to one merchant at a time).
 */
import type { Decider } from '../decider';
import {
  WALLET_EVENT_SCHEMA_VERSION,
  type WalletDomainEvent,
  type WalletSettingsChanges,
  type WalletSettingsEvent,
} from './events';
import {
  MAX_WALLET_DOMAINS,
  WalletSettingsInvalid,
  emptyAppleSettings,
  emptyGoogleSettings,
  type AppleWalletSettings,
  type GoogleWalletSettings,
} from './settings';

export interface WalletSettingsState {
  merchantId: string | null;
  apple: AppleWalletSettings | null;
  google: GoogleWalletSettings | null;
  domains: string[];
  domainAssociation: string | null;
  updatedAt: string | null;
}

export const initialWalletSettings = (): WalletSettingsState => ({
  merchantId: null,
  apple: null,
  google: null,
  domains: [],
  domainAssociation: null,
  updatedAt: null,
});

export type WalletSettingsCommand = {
  type: 'ChangeWalletSettings';
  data: { merchantId: string; changes: WalletSettingsChanges; now: string };
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Only what really differs is recorded, so the history shows what the merchant changed. */
function realChanges(state: WalletSettingsState, changes: WalletSettingsChanges): WalletSettingsChanges {
  const out: WalletSettingsChanges = {};
  const diff = <T extends object>(current: T | null, empty: T, wanted: Partial<T> | undefined): Partial<T> | undefined => {
    if (!wanted) return undefined;
    const base = current ?? empty;
    const changed = Object.fromEntries(
      Object.entries(wanted).filter(([key, value]) => value !== undefined && (current === null || !same(base[key as keyof T], value))),
    ) as Partial<T>;
    return Object.keys(changed).length > 0 ? changed : undefined;
  };
  const apple = diff(state.apple, emptyAppleSettings(), changes.apple);
  const google = diff(state.google, emptyGoogleSettings(), changes.google);
  if (apple) out.apple = apple;
  if (google) out.google = google;
  if (changes.domains !== undefined && !same(changes.domains, state.domains)) out.domains = changes.domains;
  if (changes.domainAssociation !== undefined && changes.domainAssociation !== state.domainAssociation) {
    out.domainAssociation = changes.domainAssociation;
  }
  return out;
}

export const walletSettingsDecider: Decider<WalletSettingsCommand, WalletSettingsState, WalletSettingsEvent> = {
  decide(command, state) {
    if (command.data.changes.domains && command.data.changes.domains.length > MAX_WALLET_DOMAINS) {
      throw new WalletSettingsInvalid('domains', `A merchant may register at most ${MAX_WALLET_DOMAINS} wallet domains.`);
    }
    const changes = realChanges(state, command.data.changes);
    if (Object.keys(changes).length === 0) return [];
    return [{ type: 'WalletSettingsChanged', data: { merchantId: command.data.merchantId, changes, changedAt: command.data.now } }];
  },
  evolve(state, event) {
    const { changes } = event.data;
    return {
      merchantId: event.data.merchantId,
      apple: changes.apple ? { ...(state.apple ?? emptyAppleSettings()), ...changes.apple } : state.apple,
      google: changes.google ? { ...(state.google ?? emptyGoogleSettings()), ...changes.google } : state.google,
      domains: changes.domains ?? state.domains,
      domainAssociation: changes.domainAssociation !== undefined ? changes.domainAssociation : state.domainAssociation,
      updatedAt: event.data.changedAt,
    };
  },
  initialState: initialWalletSettings,
  schemaVersion: WALLET_EVENT_SCHEMA_VERSION,
};

export interface WalletDomainState {
  owner: string | null;
}

export type WalletDomainCommand =
  | { type: 'ClaimWalletDomain'; data: { domain: string; merchantId: string; now: string } }
  | { type: 'ReleaseWalletDomain'; data: { domain: string; merchantId: string; now: string } };

export const walletDomainDecider: Decider<WalletDomainCommand, WalletDomainState, WalletDomainEvent> = {
  decide(command, state) {
    const { domain, merchantId, now } = command.data;
    if (command.type === 'ClaimWalletDomain') {
      if (state.owner === merchantId) return [];
      if (state.owner !== null) throw new WalletSettingsInvalid('domains', `The domain ${domain} is registered to another merchant.`);
      return [{ type: 'WalletDomainClaimed', data: { domain, merchantId, claimedAt: now } }];
    }
    if (state.owner !== merchantId) return [];
    return [{ type: 'WalletDomainReleased', data: { domain, merchantId, releasedAt: now } }];
  },
  evolve(state, event) {
    return event.type === 'WalletDomainClaimed' ? { owner: event.data.merchantId } : { owner: null };
  },
  initialState: () => ({ owner: null }),
  schemaVersion: WALLET_EVENT_SCHEMA_VERSION,
};
