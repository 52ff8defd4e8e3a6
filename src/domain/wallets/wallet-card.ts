/**
 * What a verified, decrypted wallet token says about the card. The PAN lives only in memory on
 * its way to the vault: a WalletCard must never be put into an event, a log or a callback.
 */
import { WalletTokenRefused } from './refusals';
import type { Wallet } from './token-shape';

export type PanType = 'DPAN' | 'FPAN';

export interface WalletCard {
  wallet: Wallet;
  pan: string;
  /** MM */
  expMonth: string;
  /** YYYY */
  expYear: string;
  holder?: string;
  /** DPAN: a device or network token with a cryptogram; FPAN: the card's own number. */
  panType: PanType;
  cryptogram?: string;
  eci?: string;
  /** Apple `transactionId`, Google `messageId`: what makes a token single-use. */
  transactionId: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const PAN = /^[0-9]{12,19}$/;

function refuse(reason: string): never {
  throw new WalletTokenRefused(reason);
}

function pan(value: unknown): string {
  if (typeof value !== 'string' || !PAN.test(value)) refuse('decrypted data holds no card number');
  return value;
}

function month(value: unknown): string {
  const n = typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 12) refuse('decrypted data holds no expiry month');
  return String(n).padStart(2, '0');
}

function year(value: unknown): string {
  const n = typeof value === 'string' && /^\d{4}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 2000 || n > 2099) refuse('decrypted data holds no expiry year');
  return String(n);
}

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Apple's decrypted payment data: `applicationPrimaryAccountNumber` (always a device PAN),
 * `applicationExpirationDate` `YYMMDD`, `cardholderName`, and for `3DSecure` data the
 * `onlinePaymentCryptogram` and `eciIndicator`.
 */
export function appleWalletCard(decrypted: unknown, transactionId: string): WalletCard {
  if (!isObject(decrypted)) refuse('decrypted Apple data is not an object');
  const expiry = decrypted.applicationExpirationDate;
  if (typeof expiry !== 'string' || !/^\d{6}$/.test(expiry)) refuse('decrypted data holds no expiry date');
  const details = isObject(decrypted.paymentData) ? decrypted.paymentData : {};
  const cryptogram = optionalText(details.onlinePaymentCryptogram);
  const eci = optionalText(details.eciIndicator);
  const holder = optionalText(decrypted.cardholderName);
  return {
    wallet: 'applepay',
    pan: pan(decrypted.applicationPrimaryAccountNumber),
    expMonth: month(expiry.slice(2, 4)),
    expYear: `20${expiry.slice(0, 2)}`,
    ...(holder ? { holder } : {}),
    panType: 'DPAN',
    ...(cryptogram ? { cryptogram } : {}),
    ...(eci ? { eci } : {}),
    transactionId,
  };
}

/**
 * Google's decrypted message: `paymentMethod` `CARD` with `paymentMethodDetails` whose
 * `authMethod` is `PAN_ONLY` (the card's own number, FPAN) or `CRYPTOGRAM_3DS` (a network token,
 * DPAN, with `cryptogram` and usually `eciIndicator`).
 */
export function googleWalletCard(decrypted: unknown): WalletCard {
  if (!isObject(decrypted)) refuse('decrypted Google message is not an object');
  if (decrypted.paymentMethod !== 'CARD') refuse('decrypted Google message is not a card');
  const messageId = optionalText(decrypted.messageId);
  if (!messageId) refuse('decrypted Google message has no messageId');
  const details = decrypted.paymentMethodDetails;
  if (!isObject(details)) refuse('decrypted Google message has no paymentMethodDetails');
  const authMethod = details.authMethod;
  if (authMethod !== 'PAN_ONLY' && authMethod !== 'CRYPTOGRAM_3DS') refuse('decrypted Google message has an unknown authMethod');
  const cryptogram = optionalText(details.cryptogram);
  if (authMethod === 'CRYPTOGRAM_3DS' && !cryptogram) refuse('a CRYPTOGRAM_3DS card without its cryptogram');
  const eci = optionalText(details.eciIndicator);
  const holder = optionalText(details.cardholderName);
  return {
    wallet: 'googlepay',
    pan: pan(details.pan),
    expMonth: month(details.expirationMonth),
    expYear: year(details.expirationYear),
    ...(holder ? { holder } : {}),
    panType: authMethod === 'CRYPTOGRAM_3DS' ? 'DPAN' : 'FPAN',
    ...(authMethod === 'CRYPTOGRAM_3DS' ? { cryptogram } : {}),
    ...(authMethod === 'CRYPTOGRAM_3DS' && eci ? { eci } : {}),
    transactionId: messageId,
  };
}
