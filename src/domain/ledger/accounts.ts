/**
 * The ledger's chart of accounts. Every account exists once per merchant and currency; amounts are
 * signed integer minor units of that currency, positive when they add to the account's balance and
 * negative when they take from it. Every posting set sums to zero, so a hold or a payment can only
 * move between accounts, never appear or vanish.
 *
 * Two pairs of accounts, kept apart because a hold is a promise on the payer's card and not money:
 * - holds:  `payer_holds` (external: the card side of holds) and `authorized_holds` (open holds);
 * - funds:  `payer_funds` (external: the card side of money) and `merchant_receivable` (money that
 *           settled and is owed to the merchant).
 * And one account of its own for payouts (CREDIT2VIRTUAL, card credits): `paid_out`, money that left
 * `merchant_receivable` for payees, so analysts see payouts apart from refunds and voids.
 * And one for operators' top-ups of a merchant's payout balance: `topped_up`, money brought in from
 * outside the payments to fund payouts, which adds to `merchant_receivable`.
 * External accounts mirror the outside world, so their balances are normally negative (`topped_up`
 * is minus what was brought in); `paid_out` mirrors the payees' side and grows positive.
 */

export const LEDGER_ACCOUNTS = ['payer_holds', 'authorized_holds', 'payer_funds', 'merchant_receivable', 'paid_out', 'topped_up'] as const;

export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
