/** Reading the merchants read model: what the merchant lookup port asks. */
import type { Kysely, Selectable } from 'kysely';
import type { MerchantRecord } from '../../src/application/ports/merchant-lookup';
import { merchantStateOfRow } from './projection';
import type { MerchantsTable, MerchantsTables } from './tables';

export function toMerchantRecord(row: Selectable<MerchantsTable>): MerchantRecord {
  const { exists: _exists, ...merchant } = merchantStateOfRow(row);
  return merchant;
}

export class MerchantQueries {
  constructor(private readonly db: Kysely<MerchantsTables>) {}

  async merchantByClientKey(clientKey: string): Promise<MerchantRecord | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('client_key', '=', clientKey).executeTakeFirst();
    return row && toMerchantRecord(row);
  }

  async merchantByMerchantKey(merchantKey: string): Promise<MerchantRecord | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('merchant_key', '=', merchantKey).executeTakeFirst();
    return row && toMerchantRecord(row);
  }

  async merchantById(merchantId: string): Promise<MerchantRecord | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst();
    return row && toMerchantRecord(row);
  }

  async listMerchants(): Promise<MerchantRecord[]> {
    const rows = await this.db.selectFrom('merchants').selectAll().orderBy('registered_at', 'asc').orderBy('merchant_id', 'asc').execute();
    return rows.map(toMerchantRecord);
  }
}
