/** What the analytics page is asked for: its query read, each field's problem named in the operator's words. */
import type Koa from 'koa';
import { parseAsOf } from '../../../domain/ledger/balance-report';
import { isCurrency } from '../../../domain/money';
import { isUuid } from '../../../domain/ids';
import { isDay, queryText } from '../format';

const DEFAULT_DAYS = 30;

export interface AnalyticsQuery {
  /** The fields as typed, shown again in the form. */
  currencyText: string | undefined;
  asOfText: string | undefined;
  from: string;
  to: string;
  asOf: Date | null;
  filter: { merchantId: string | undefined; currency: string | undefined };
  /** A message per field that cannot be read; nothing is charted while there is one. */
  problems: Record<string, string>;
}

/** The query of the page; `today` (a UTC day) ends the days charted when none is given. */
export function analyticsQuery(ctx: Koa.Context, today: string): AnalyticsQuery {
  const problems: Record<string, string> = {};
  const merchantText = queryText(ctx, 'merchant');
  const currencyText = queryText(ctx, 'currency')?.toUpperCase();
  const fromText = queryText(ctx, 'from');
  const toText = queryText(ctx, 'to');
  const asOfText = queryText(ctx, 'as_of');
  if (merchantText && !isUuid(merchantText)) problems.merchant = 'Choose a merchant from the list.';
  if (currencyText && !isCurrency(currencyText)) problems.currency = 'An ISO 4217 code such as EUR.';
  if (fromText && !isDay(fromText)) problems.from = 'A date such as 2026-11-01.';
  if (toText && !isDay(toText)) problems.to = 'A date such as 2026-11-30.';
  const asOf = asOfText ? parseAsOf(asOfText) : null;
  if (asOfText && !asOf) problems.as_of = 'A date-time with a zone, such as 2026-11-30T23:59:59Z.';
  const to = toText && isDay(toText) ? toText : today;
  const from = fromText && isDay(fromText) ? fromText : new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  if (from > to) problems.from = 'The first day must not be after the last.';
  const filter = {
    merchantId: merchantText && isUuid(merchantText) ? merchantText.toLowerCase() : undefined,
    currency: currencyText && isCurrency(currencyText) ? currencyText : undefined,
  };
  return { currencyText, asOfText, from, to, asOf, filter, problems };
}
