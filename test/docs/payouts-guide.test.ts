/**
 * docs/payouts.md says what the gateway does: its worked hash is the gateway's own
 * (credit2VirtualHash), its table of countries and operators is the one payouts are checked against
 * (src/domain/payouts/mobile-money.ts), and every curl example pays to a number of its operator
 * within that operator's bounds.
 */
import { expect } from 'chai';
import { credit2VirtualHash } from '../../src/domain/signatures';
import { MOBILE_MONEY_OPERATORS, PAYOUT_COUNTRIES, mobileMoneyOperator, numberMatchesOperator, payoutBounds } from '../../src/domain/payouts/mobile-money';
import { fencedBlocks, readDoc } from './markdown';

const PAGE = 'docs/payouts.md';

describe('docs/payouts.md', () => {
  const page = readDoc(PAGE);

  it('Given the worked example, then its hash is the gateway\'s for the password the page names', () => {
    const [example] = fencedBlocks(page, 'payout-hash-example');
    const fields = Object.fromEntries(example!.body.trim().split('\n').map((line) => line.trim().split(/\s+/, 2) as [string, string]));
    const password = /Merchant password `([0-9a-f]{32})`/.exec(page)![1]!;
    expect(fields.hash).to.equal(credit2VirtualHash({ orderId: fields.order_id!, orderAmount: fields.order_amount!, orderCurrency: fields.order_currency!, password }));
    expect(fields.reversed).to.equal([...`${fields.order_id}${fields.order_amount}${fields.order_currency}`].reverse().join(''));
  });

  it('Given the table of countries and operators, then it lists every operator in order with the bounds the gateway checks', () => {
    const rows = page.split('\n').filter((line) => /^\| [^|]*\| [^|]*\| [^|]*\| `[a-z-]+` \|/.test(line));
    let country = '';
    const listed = rows.map((row) => {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
      if (cells[1]) country = cells[1];
      const slug = cells[3]!.replace(/`/g, '');
      return { slug, currency: country, countryBounds: cells[2], ownBounds: cells[5] };
    });
    expect(listed.map((r) => r.slug)).to.deep.equal(MOBILE_MONEY_OPERATORS.map((o) => o.slug));
    for (const r of listed) {
      const op = mobileMoneyOperator(r.slug)!;
      expect(r.currency, r.slug).to.equal(op.currency);
      const c = PAYOUT_COUNTRIES.find((x) => x.currency === op.currency)!;
      if (r.countryBounds) expect(r.countryBounds, r.slug).to.equal(`${c.min} to ${c.max}`);
      expect(r.ownBounds || null, r.slug).to.equal(op.bounds ? `${op.bounds.min} to ${op.bounds.max}` : null);
    }
  });

  it('Given the curl examples per country, then each number is its operator\'s and each amount within its bounds', () => {
    const calls = [...page.matchAll(/^payout (\S+)\s+([A-Z]{3}) (\S+)\s+(\d+)/gm)];
    expect(calls.map((m) => m[2])).to.include.members(PAYOUT_COUNTRIES.map((c) => c.currency));
    for (const [, amount, currency, slug, number] of calls) {
      const op = mobileMoneyOperator(slug!)!;
      expect(op.currency, slug).to.equal(currency);
      expect(numberMatchesOperator(number!, op), `${slug} ${number}`).to.equal(true);
      const { min, max } = payoutBounds(op);
      expect(Number(amount), `${slug} ${amount}`).to.be.within(min, max);
    }
  });
});
