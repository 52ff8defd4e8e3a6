/**
 * One row per merchant, folded with `evolveMerchant`. The row holds every field of the merchant
 * state, so the stored row is turned back into state and folded further instead of re-reading the
 * stream.
 */
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { StoredEvent } from '../../src/application/ports/event-store';
import type { LinkTarget } from '../../src/domain/checkout/session-events';
import type { Environment, MerchantEvent, PaymentMode } from '../../src/domain/merchant/events';
import { evolveMerchant, initialMerchantState, type ExistingMerchant, type MerchantState } from '../../src/domain/merchant/state';
import type { MethodsSetting } from '../../src/domain/merchant/methods';
import { protocolMappingOf } from '../../src/domain/merchant/protocol-mapping';
import { chunked, upsertRows, type UpsertSpec } from '../bulk-upsert';
import type { MerchantsTable, MerchantsTables } from './tables';

const MERCHANT_TYPES: ReadonlySet<string> = new Set<MerchantEvent['type']>(['MerchantRegistered', 'MerchantSettingsChanged']);

const UPDATABLE_COLUMNS = [
  'name',
  'environment',
  'client_key',
  'merchant_key',
  'password_ciphertext',
  'payment_mode',
  'notification_url',
  'ip_allowlist',
  'refunds_enabled',
  'protocol_mapping',
  'override_link_target',
  'card_on_file_support',
  'connectors',
  'methods',
  'registered_at',
  'updated_at',
] as const satisfies readonly (keyof MerchantsTable)[];

const UPSERT: UpsertSpec<MerchantsTables, 'merchants'> = {
  table: 'merchants',
  columns: ['merchant_id', ...UPDATABLE_COLUMNS],
  key: ['merchant_id'],
  update: UPDATABLE_COLUMNS,
};

export function merchantRow(state: ExistingMerchant): Insertable<MerchantsTable> {
  return {
    merchant_id: state.merchantId,
    name: state.name,
    environment: state.environment,
    client_key: state.clientKey,
    merchant_key: state.merchantKey,
    password_ciphertext: state.passwordCiphertext,
    payment_mode: state.paymentMode,
    notification_url: state.notificationUrl,
    ip_allowlist: JSON.stringify(state.ipAllowlist),
    refunds_enabled: state.refundsEnabled ? 1 : 0,
    protocol_mapping: JSON.stringify(state.protocolMapping),
    override_link_target: state.overrideLinkTarget ?? null,
    card_on_file_support: state.cardOnFileSupport ? 1 : 0,
    connectors: state.connectors ? JSON.stringify(state.connectors) : null,
    methods: state.methods !== undefined ? JSON.stringify(state.methods) : null,
    registered_at: state.registeredAt,
    updated_at: state.updatedAt,
  };
}

export function merchantStateOfRow(row: Selectable<MerchantsTable>): ExistingMerchant {
  return {
    exists: true,
    merchantId: row.merchant_id,
    name: row.name,
    environment: row.environment as Environment,
    clientKey: row.client_key,
    merchantKey: row.merchant_key,
    passwordCiphertext: row.password_ciphertext,
    paymentMode: row.payment_mode as PaymentMode,
    notificationUrl: row.notification_url,
    ipAllowlist: JSON.parse(row.ip_allowlist) as string[],
    refundsEnabled: Number(row.refunds_enabled) === 1,
    // Null in rows written before the column existed: nothing was switched on then.
    protocolMapping: protocolMappingOf(row.protocol_mapping === null ? null : JSON.parse(row.protocol_mapping)),
    // Absent rather than null when unset, as in the state of a merchant that never set it.
    ...(row.override_link_target ? { overrideLinkTarget: row.override_link_target as LinkTarget } : {}),
    ...(Number(row.card_on_file_support) === 1 ? { cardOnFileSupport: true } : {}),
    // Absent when never set, as in the state of a merchant that never set them (null in older rows too).
    ...(row.connectors ? { connectors: JSON.parse(row.connectors) as string[] } : {}),
    ...(row.methods ? { methods: JSON.parse(row.methods) as MethodsSetting } : {}),
    registeredAt: row.registered_at,
    updatedAt: row.updated_at,
  };
}

/** Folds the batch's merchant events into the merchants' rows. */
export async function applyToMerchants(trx: Transaction<MerchantsTables>, events: StoredEvent[]): Promise<void> {
  const relevant = events.filter((e) => MERCHANT_TYPES.has(e.type));
  if (relevant.length === 0) return;

  const ids = [...new Set(relevant.map((e) => String(e.data.merchantId)))];
  const states = new Map<string, MerchantState>();
  for (const part of chunked(ids, 5_000)) {
    const rows = await trx.selectFrom('merchants').selectAll().where('merchant_id', 'in', part).execute();
    for (const row of rows) states.set(row.merchant_id, merchantStateOfRow(row));
  }

  const changed = new Set<string>();
  for (const event of relevant) {
    const id = String(event.data.merchantId);
    const before = states.get(id) ?? initialMerchantState();
    const after = evolveMerchant(before, { type: event.type, data: event.data } as unknown as MerchantEvent);
    if (after === before) continue;
    states.set(id, after);
    changed.add(id);
  }

  const rows: Insertable<MerchantsTable>[] = [];
  for (const id of changed) {
    const state = states.get(id);
    if (state?.exists) rows.push(merchantRow(state));
  }
  await upsertRows(trx, UPSERT, rows);
}
