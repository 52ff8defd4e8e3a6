/**
 * The merchant's terms a SALE is made under, read once from its account into required fields: a
 * command carries them whole, so no step can forget the payment mode or route it on the wrong
 * connectors.
 */
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { merchantStreamId, type PaymentMode } from '../../../domain/merchant/events';
import { methodEnabled } from '../../../domain/merchant/methods';
import type { MerchantAccount } from '../../merchant-service';

export interface MerchantTerms {
  merchantId: string;
  /** Google Pay's Gateway Merchant ID unless one is set (a wallet token names it). */
  clientKey: string;
  /** The MID's Payment Mode every payment must fit. */
  paymentMode: PaymentMode;
  /** The merchant's connectors, in the order to try them. */
  connectors: readonly string[];
  /** Whether the methods (wallets among them) are taken: the merchant's setting, for its environment. */
  methodEnabled(method: string): boolean;
  /** The merchant's card_on_file_support: ask the connector for a card-on-file reference. */
  cardOnFileSupport: boolean;
  /** Optional SALE fields this merchant's Protocol Mapping makes Required. */
  requiredFields: readonly string[];
  /** The merchant's stream and the version these terms were read at: the SALE's write checks it. */
  settingsAt: { streamId: string; version: bigint };
}

export function merchantTermsOf(merchant: MerchantAccount): MerchantTerms {
  return {
    merchantId: merchant.merchantId,
    clientKey: merchant.clientKey,
    paymentMode: merchant.paymentMode,
    connectors: merchantConnectors(merchant),
    methodEnabled: (method) => methodEnabled(merchant, method),
    cardOnFileSupport: merchant.cardOnFileSupport === true,
    requiredFields: merchant.protocolMapping.requiredFields,
    settingsAt: { streamId: merchantStreamId(merchant.merchantId), version: merchant.settingsVersion },
  };
}
