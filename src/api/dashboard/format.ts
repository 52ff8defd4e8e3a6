/** Reading query strings and forms, and writing money, for the dashboard's pages. */
import type Koa from 'koa';
import { formatMinor, isCurrency } from '../../domain/money';

/** One value of a query parameter (the first when repeated); empty text is absent. */
export function queryText(ctx: Koa.Context, name: string): string | undefined {
  const value = ctx.query[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

/** The posted form, as the app's body parser left it. */
export function formOf(ctx: Koa.Context): Record<string, string | string[]> {
  const body = (ctx.request as { body?: unknown }).body;
  return body && typeof body === 'object' ? (body as Record<string, string | string[]>) : {};
}

/** One value of a form field (the first when repeated). */
export function formText(form: Record<string, string | string[]>, name: string): string | undefined {
  const value = form[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** Every value of a form field (checkboxes). */
export function formList(form: Record<string, string | string[]>, name: string): string[] {
  const value = form[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** What a payment is, in the operator's words: a credit (CREDIT2VIRTUAL, a Checkout card credit) is a payout. */
export function kindText(kind: string): string {
  return kind === 'credit' ? 'payout' : kind;
}

/**
 * What a payment was made with: the alternative method as the merchant named it (`sb-redirect`,
 * a payout's `sb-momo`), the card's brand and masked number, or both for a wallet paid by card.
 */
export function methodText(p: { method?: string; cardBrand: string; cardMask: string }): string {
  const card = [p.cardBrand, p.cardMask].filter(Boolean).join(' ');
  const method = p.method && p.method !== p.cardBrand ? p.method : '';
  return [method, card].filter(Boolean).join(' · ');
}

/** Minor units as decimal text with the currency: `1050 USD` → `10.50 USD`. */
export function money(minor: number, currency: string): string {
  return isCurrency(currency) ? `${formatMinor(minor, currency)} ${currency}` : `${minor} ${currency}`;
}

/** Minor units as a number of major units, for chart axes. */
export function major(minor: number, currency: string): number {
  const text = isCurrency(currency) ? formatMinor(minor, currency) : String(minor);
  return Number(text);
}

export const isDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

/** The day after a `YYYY-MM-DD`. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length < 400; day = nextDay(day)) days.push(day);
  return days;
}

export const percent = (rate: number): string => `${(rate * 100).toFixed(rate < 0.1 && rate > 0 ? 1 : 0)} %`;

/** A same-origin dashboard path to come back to, or the fallback: never another site. */
export function dashboardPath(candidate: string | undefined, fallback: string): string {
  if (!candidate || candidate.length > 512) return fallback;
  if (!/^\/dashboard(?:[/?][\w\-./?=&%]*)?$/.test(candidate) || candidate.includes('//') || candidate.includes('\\') || candidate.includes('..')) return fallback;
  return candidate;
}

/** A query string of the non-empty values, for links that keep the page's filters. */
export function queryOf(values: Record<string, string | undefined>): string {
  const entries = Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  return entries.length ? `?${new URLSearchParams(entries)}` : '';
}
