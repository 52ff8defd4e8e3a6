import { DomainError } from '../../domain/errors';
import type { MerchantAccount } from '../merchant-service';
import type { CheckoutDeps } from './deps';

/** A session's merchant; `merchant_not_found` when the account is gone. */
export async function merchantOf(deps: CheckoutDeps, merchantId: string): Promise<MerchantAccount> {
  const merchant = await deps.merchants.accountById(merchantId);
  if (!merchant) throw new DomainError('merchant_not_found', `Merchant ${merchantId} not found`);
  return merchant;
}
