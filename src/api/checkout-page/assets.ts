/**
 * The hosted payment page's stylesheet and script, served by the gateway itself. Their URLs carry
 * a digest of the content, so browsers may cache them for a year and still get a new release.
 */
import { createHash } from 'node:crypto';
import { METHOD_PAGE_CSS } from './method-styles';
import { METHOD_STEP_JS } from './method-step-script';
import { CHECKOUT_PAGE_JS } from './page-script';
import { CHECKOUT_PAGE_CSS } from './page-styles';

export const CHECKOUT_CSS_PATH = '/checkout/assets/checkout.css';
export const CHECKOUT_JS_PATH = '/checkout/assets/checkout.js';
export const CHECKOUT_STEP_JS_PATH = '/checkout/assets/method-step.js';

/** The page's rules, then the alternative methods' (one stylesheet, one request). */
const CSS = CHECKOUT_PAGE_CSS + METHOD_PAGE_CSS;

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const CHECKOUT_ASSETS = {
  css: { path: CHECKOUT_CSS_PATH, version: digest(CSS), body: CSS, type: 'text/css; charset=utf-8' },
  js: { path: CHECKOUT_JS_PATH, version: digest(CHECKOUT_PAGE_JS), body: CHECKOUT_PAGE_JS, type: 'text/javascript; charset=utf-8' },
  /** An alternative method's step: its countdown and the status questions (method-step-page.ts). */
  stepJs: { path: CHECKOUT_STEP_JS_PATH, version: digest(METHOD_STEP_JS), body: METHOD_STEP_JS, type: 'text/javascript; charset=utf-8' },
} as const;

/** A year: the versioned URL changes whenever the content does. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
