/** Pieces several evolvers fold the same way: each copies only what its event carries. */
import type { PayerReturnData, SettlementExtras } from '../events';
import type { ExistingPayment } from '../payment-state';

/** Once the payment is decided, the payer's step and its deadline are over. */
export function decidedStep(s: ExistingPayment): ExistingPayment {
  if (s.expiresAt === undefined && s.providerInstructions === undefined) return s;
  const { expiresAt: _expiresAt, providerInstructions: _instructions, ...rest } = s;
  return rest;
}

export function connectorReference(d: { reference?: string }): { acquirerReference?: string } {
  return d.reference !== undefined ? { acquirerReference: d.reference } : {};
}

/** Only what the event carries: an event without a reference keeps the one recorded before. */
export function references(d: { rrn?: string; arn?: string }): { rrn?: string; arn?: string } {
  return { ...(d.rrn !== undefined ? { rrn: d.rrn } : {}), ...(d.arn !== undefined ? { arn: d.arn } : {}) };
}

/**
 * A successful initial payment opens its chain: the token is the connector's card-on-file
 * reference when the merchant asked for one (card_on_file_support), else the gateway's own.
 */
export function chainToken(s: ExistingPayment, d: { cardOnFileId?: string }): { recurringToken?: string } {
  if (s.recurring?.role !== 'initial') return {};
  const token = d.cardOnFileId ?? s.recurring.token;
  return token ? { recurringToken: token } : {};
}

export function extras(d: SettlementExtras): SettlementExtras {
  return { ...(d.conversion ? { conversion: d.conversion } : {}), ...(d.extendedData ? { extendedData: d.extendedData } : {}) };
}

export function payerReturn(d: PayerReturnData): PayerReturnData {
  return { ...(d.threeDS ? { threeDS: d.threeDS } : {}), ...(d.browser ? { browser: d.browser } : {}) };
}
