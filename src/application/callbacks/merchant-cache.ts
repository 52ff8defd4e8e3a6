import type { MerchantAccount } from '../merchant-service';
import type { MerchantLookup } from './notifier-deps';

const MERCHANT_CACHE_MS = 1_000;

/**
 * Merchant settings for callbacks, re-read at most once a second: a settings change reaches
 * callbacks within a second, and a busy log does not cost a stream lookup per event.
 */
export class MerchantCache {
  private readonly cache = new Map<string, { account: MerchantAccount | undefined; at: number }>();

  constructor(private readonly merchants: MerchantLookup) {}

  async accountOf(merchantId: string): Promise<MerchantAccount | undefined> {
    const now = Date.now();
    const cached = this.cache.get(merchantId);
    if (cached && now - cached.at < MERCHANT_CACHE_MS) return cached.account;
    const account = await this.merchants.accountById(merchantId);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(merchantId, { account, at: now });
    return account;
  }
}
