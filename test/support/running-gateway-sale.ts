/**
 * A card SALE over HTTP to a gateway started with `runGateway` (as `npm start` runs it), signed for
 * its demo merchant; answers the transaction id of the SETTLED payment.
 */
import { expect } from 'chai';
import type { RunningGateway } from '../../src/server';
import { defaultSaleFields, signSale, type Fields } from './gateway-harness';

export async function settledSaleOver(running: RunningGateway, orderId: string, extra: Fields = {}): Promise<string> {
  const merchant = running.demoMerchant!;
  const fields: Fields = { ...defaultSaleFields({ client_key: merchant.client_key } as never), order_id: orderId, ...extra };
  fields.hash = signSale(fields, merchant.password);
  const body = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
  const answer = (await (await fetch(`${running.baseUrl}/post`, { method: 'POST', body })).json()) as { status: string; trans_id: string };
  expect(answer.status).to.equal('SETTLED');
  return answer.trans_id;
}
