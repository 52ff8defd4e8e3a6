/**
 * The payer's browser attributes, as the ACS and redirect pages collect them: request headers
 * (user agent, Accept, Accept-Language) plus the hidden `browser_*` fields the page script fills
 * in (colour depth, screen size, time zone offset, Java/JavaScript, language, platform).
 *
 * Everything here comes from the payer's browser, so every value is checked and bounded; a value
 * that does not fit is dropped, never stored.
 */
import type { BrowserAttributes } from '../../domain/payment/events';

/** Hidden fields the hosted forms carry; the page script fills them in (see AUTO_SUBMIT_JS). */
export const BROWSER_FORM_FIELDS = [
  'browser_color_depth',
  'browser_screen_height',
  'browser_screen_width',
  'browser_java_enabled',
  'browser_javascript_enabled',
  'browser_language',
  'browser_timezone_offset',
  'browser_platform',
] as const;

export type BrowserFormField = (typeof BROWSER_FORM_FIELDS)[number];

/**
 * Initial values of the hidden fields. `browser_javascript_enabled` starts as `false`: the script
 * sets it to `true`, so a browser that runs no script reports exactly that.
 */
export const BROWSER_FIELD_DEFAULTS: Readonly<Record<BrowserFormField, string>> = {
  browser_color_depth: '',
  browser_screen_height: '',
  browser_screen_width: '',
  browser_java_enabled: '',
  browser_javascript_enabled: 'false',
  browser_language: '',
  browser_timezone_offset: '',
  browser_platform: '',
};

const MAX_HEADER_LENGTH = 1024;
const LANGUAGE = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,4}$/;
const PRINTABLE = /^[\x20-\x7e]+$/;

function integer(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !/^-?\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

function flag(value: string | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function headerText(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim().slice(0, MAX_HEADER_LENGTH);
  return trimmed && PRINTABLE.test(trimmed) ? trimmed : undefined;
}

/** `de-CH,de;q=0.9,en;q=0.8` → `de-CH`. */
function firstLanguage(acceptLanguage: string | undefined): string | undefined {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return first && LANGUAGE.test(first) ? first : undefined;
}

/** Undefined when the browser told nothing usable. */
export function browserAttributesFrom(
  headers: { userAgent?: string; accept?: string; acceptLanguage?: string },
  field: (name: BrowserFormField) => string | undefined,
): BrowserAttributes | undefined {
  const language = field('browser_language');
  const platform = field('browser_platform')?.trim();
  const attributes: BrowserAttributes = {
    colorDepth: integer(field('browser_color_depth'), 1, 64),
    screenHeight: integer(field('browser_screen_height'), 1, 100_000),
    screenWidth: integer(field('browser_screen_width'), 1, 100_000),
    javaEnabled: flag(field('browser_java_enabled')),
    javascriptEnabled: flag(field('browser_javascript_enabled')),
    language: language && LANGUAGE.test(language) ? language : firstLanguage(headers.acceptLanguage),
    // Real offsets lie within -14 h to +12 h.
    timezoneOffset: integer(field('browser_timezone_offset'), -900, 900),
    userAgent: headerText(headers.userAgent),
    acceptHeaders: headerText(headers.accept),
    platform: platform && platform.length <= 64 && PRINTABLE.test(platform) ? platform : undefined,
  };
  const present = Object.entries(attributes).filter(([, v]) => v !== undefined);
  return present.length ? (Object.fromEntries(present) as BrowserAttributes) : undefined;
}

/**
 * A script expression (for the gateway's page scripts) giving the browser's values for the hidden
 * fields that browserAttributesFrom reads; one definition so every page reports the same names.
 */
export const BROWSER_VALUES_JS = `{
      browser_color_depth: screen.colorDepth,
      browser_screen_height: screen.height,
      browser_screen_width: screen.width,
      browser_java_enabled: typeof navigator.javaEnabled === 'function' ? navigator.javaEnabled() : false,
      browser_javascript_enabled: true,
      browser_language: navigator.language || '',
      browser_timezone_offset: new Date().getTimezoneOffset(),
      browser_platform: navigator.platform || ''
    }`;
