/**
 * The wallet token shapes a merchant may send, checked without any cryptography. The token stays
 * exactly as it came (`original`): signatures cover the strings inside it, and the virtual flow
 * hands it to the connector as it is, so it is never re-encoded.
 *
 * - Apple Pay: a `PKPaymentToken` (`{paymentData, paymentMethod, transactionIdentifier}`) or its
 *   `paymentData` alone, version `EC_v1`.
 * - Google Pay: an `ECv2` token, or the whole `PaymentData` with the token at
 *   `paymentMethodData.tokenizationData.token` (a JSON string or an object).
 */
import { WalletTokenMalformed } from './refusals';

export const WALLETS = ['applepay', 'googlepay'] as const;
export type Wallet = (typeof WALLETS)[number];

export const isWallet = (value: unknown): value is Wallet => (WALLETS as readonly unknown[]).includes(value);

/** Larger than any real token by far; a bound on what is parsed and hashed. */
export const MAX_TOKEN_CHARS = 32 * 1024;

export interface ApplePaymentData {
  version: 'EC_v1';
  /** Base64: the encrypted payment data, GCM tag at its end. */
  data: string;
  /** Base64: a detached CMS SignedData (PKCS#7). */
  signature: string;
  header: {
    /** Base64 SubjectPublicKeyInfo of the sender's ephemeral P-256 key. */
    ephemeralPublicKey: string;
    /** Base64 SHA-256 of the merchant's processing public key (SubjectPublicKeyInfo). */
    publicKeyHash: string;
    /** Hex. */
    transactionId: string;
    /** Hex, when the payment request carried application data. */
    applicationData?: string;
  };
}

export interface GoogleEcv2Token {
  protocolVersion: 'ECv2';
  /** Base64 DER ECDSA signature of the message by the intermediate key. */
  signature: string;
  intermediateSigningKey: {
    /** JSON text `{keyValue, keyExpiration}`, exactly as signed. */
    signedKey: string;
    signatures: string[];
  };
  /** JSON text `{encryptedMessage, ephemeralPublicKey, tag}`, exactly as signed. */
  signedMessage: string;
}

export type WalletToken =
  | { wallet: 'applepay'; paymentData: ApplePaymentData; original: string | object }
  | { wallet: 'googlepay'; token: GoogleEcv2Token; original: string | object };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function fail(reason: string): never {
  throw new WalletTokenMalformed(reason);
}

function base64Field(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || !BASE64.test(value)) fail(`${name} must be base64`);
  return value;
}

function hexField(value: unknown, name: string): string {
  if (typeof value !== 'string' || !HEX.test(value)) fail(`${name} must be hex`);
  return value;
}

function jsonObject(value: string | object, name: string): Json {
  if (typeof value === 'string') {
    if (value.length > MAX_TOKEN_CHARS) fail(`${name} is too long`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      fail(`${name} is not JSON`);
    }
    if (!isObject(parsed)) fail(`${name} is not a JSON object`);
    return parsed;
  }
  if (!isObject(value)) fail(`${name} is not an object`);
  return value;
}

function applePaymentData(value: unknown): ApplePaymentData {
  if (!isObject(value)) fail('paymentData must be an object');
  if (value.version !== 'EC_v1') fail('only version EC_v1 is accepted');
  const header = value.header;
  if (!isObject(header)) fail('header must be an object');
  return {
    version: 'EC_v1',
    data: base64Field(value.data, 'data'),
    signature: base64Field(value.signature, 'signature'),
    header: {
      ephemeralPublicKey: base64Field(header.ephemeralPublicKey, 'header.ephemeralPublicKey'),
      publicKeyHash: base64Field(header.publicKeyHash, 'header.publicKeyHash'),
      transactionId: hexField(header.transactionId, 'header.transactionId'),
      ...(header.applicationData === undefined || header.applicationData === ''
        ? {}
        : { applicationData: hexField(header.applicationData, 'header.applicationData') }),
    },
  };
}

function googleToken(value: Json): GoogleEcv2Token {
  if (value.protocolVersion !== 'ECv2') fail('only protocolVersion ECv2 is accepted');
  const key = value.intermediateSigningKey;
  if (!isObject(key)) fail('intermediateSigningKey must be an object');
  if (typeof key.signedKey !== 'string' || key.signedKey === '') fail('intermediateSigningKey.signedKey must be a string');
  if (!Array.isArray(key.signatures) || key.signatures.length === 0 || key.signatures.length > 8) {
    fail('intermediateSigningKey.signatures must be a list of signatures');
  }
  if (typeof value.signedMessage !== 'string' || value.signedMessage === '') fail('signedMessage must be a string');
  return {
    protocolVersion: 'ECv2',
    signature: base64Field(value.signature, 'signature'),
    intermediateSigningKey: {
      signedKey: key.signedKey,
      signatures: key.signatures.map((s, i) => base64Field(s, `intermediateSigningKey.signatures[${i}]`)),
    },
    signedMessage: value.signedMessage,
  };
}

/** The token of `wallet`, shape-checked; throws WalletTokenMalformed for anything else. */
export function parseWalletToken(wallet: Wallet, original: string | object): WalletToken {
  const outer = jsonObject(original, 'payment token');
  if (wallet === 'applepay') {
    const paymentData = 'paymentData' in outer ? outer.paymentData : outer;
    return { wallet, paymentData: applePaymentData(paymentData), original };
  }
  if ('protocolVersion' in outer) return { wallet, token: googleToken(outer), original };
  const method = outer.paymentMethodData;
  const tokenization = isObject(method) ? method.tokenizationData : undefined;
  const inner = isObject(tokenization) ? tokenization.token : undefined;
  if (typeof inner !== 'string' && !isObject(inner)) fail('paymentMethodData.tokenizationData.token is missing');
  return { wallet, token: googleToken(jsonObject(inner, 'tokenizationData.token')), original };
}
