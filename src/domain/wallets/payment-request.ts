/**
 * What a page hands the device's wallet to open its sheet for one payment, built from the
 * merchant's wallet settings (docs/wallets.md#setting-up-a-merchant) and the amount to pay. Apple
 * Pay's `ApplePayPaymentRequest` and Google Pay's `PaymentDataRequest` (with the `environment` its
 * `PaymentsClient` is made with). Apple Pay's networks and capabilities are the ones the settings
 * name, else a common set: a request naming none would show the payer no card.
 */
import type { AppleWalletSettings, GoogleWalletSettings } from './settings';

export interface WalletAmount {
  /** The amount as a decimal in the currency's own digits (`10.50`, `1000`). */
  value: string;
  currency: string;
}

export interface ApplePaymentRequest {
  countryCode: string;
  currencyCode: string;
  merchantCapabilities: string[];
  supportedNetworks: string[];
  total: { label: string; amount: string; type: 'final' };
}

/** The card networks Google Pay is asked for: the ones it names that the gateway takes. */
export const GOOGLE_CARD_NETWORKS = ['AMEX', 'DISCOVER', 'INTERAC', 'JCB', 'MASTERCARD', 'VISA'] as const;

const DEFAULT_APPLE_NETWORKS = ['visa', 'masterCard', 'amex', 'discover'];
// 3-D Secure is the capability every Apple Pay web request must name.
const DEFAULT_APPLE_CAPABILITIES = ['supports3DS'];
export const GOOGLE_AUTH_METHODS = ['PAN_ONLY', 'CRYPTOGRAM_3DS'] as const;

/** Apple Pay's request: the shop's name on the total, its country, capabilities and networks. */
export function applePaymentRequest(settings: AppleWalletSettings & { country: string }, shop: { name: string }, amount: WalletAmount): ApplePaymentRequest {
  return {
    countryCode: settings.country,
    currencyCode: amount.currency,
    merchantCapabilities: settings.merchantCapabilities.length ? [...settings.merchantCapabilities] : DEFAULT_APPLE_CAPABILITIES,
    supportedNetworks: settings.supportedNetworks.length ? [...settings.supportedNetworks] : DEFAULT_APPLE_NETWORKS,
    total: { label: settings.shopName ?? shop.name, amount: amount.value, type: 'final' },
  };
}

export interface GooglePaymentRequest {
  environment: GoogleWalletSettings['environment'];
  request: {
    apiVersion: 2;
    apiVersionMinor: 0;
    merchantInfo: { merchantName: string };
    allowedPaymentMethods: Array<{
      type: 'CARD';
      parameters: { allowedAuthMethods: string[]; allowedCardNetworks: string[] };
      tokenizationSpecification: { type: 'PAYMENT_GATEWAY'; parameters: { gateway: string; gatewayMerchantId: string } };
    }>;
    transactionInfo: { totalPriceStatus: 'FINAL'; totalPrice: string; currencyCode: string };
  };
}

/**
 * Google Pay's request, in the environment the settings name: tokens addressed to
 * `gateway:<Gateway>` carrying the Gateway Merchant ID (else the merchant's client_key, what the
 * gateway then expects in them), the merchant's name on the sheet.
 */
export function googlePaymentRequest(
  google: GoogleWalletSettings & { gateway: string },
  shop: { name: string; clientKey: string },
  amount: WalletAmount,
): GooglePaymentRequest {
  return {
    environment: google.environment,
    request: {
      apiVersion: 2,
      apiVersionMinor: 0,
      merchantInfo: { merchantName: shop.name },
      allowedPaymentMethods: [
        {
          type: 'CARD',
          parameters: { allowedAuthMethods: [...GOOGLE_AUTH_METHODS], allowedCardNetworks: [...GOOGLE_CARD_NETWORKS] },
          tokenizationSpecification: {
            type: 'PAYMENT_GATEWAY',
            parameters: { gateway: google.gateway, gatewayMerchantId: google.gatewayMerchantId ?? shop.clientKey },
          },
        },
      ],
      transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: amount.value, currencyCode: amount.currency },
    },
  };
}
