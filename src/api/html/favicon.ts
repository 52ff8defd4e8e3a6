/**
 * The gateway's icon, so a payer's tab shows something of the payment rather than a blank page, and
 * browsers asking for /favicon.ico get an answer instead of a 404 on every hosted page. Served from
 * the gateway itself, as the pages' policies allow (`img-src 'self'`).
 */
import type Router from '@koa/router';

export const FAVICON_ICO_PATH = '/favicon.ico';
export const FAVICON_SVG_PATH = '/favicon.svg';

/** A payment card on the gateway's blue, drawn for any size. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/>' +
  '<rect x="5" y="9" width="22" height="15" rx="2.5" fill="#fff"/><rect x="5" y="12.5" width="22" height="3.5" fill="#1d4ed8"/>' +
  '<rect x="8" y="19" width="7" height="2" rx="1" fill="#1d4ed8"/></svg>\n';

/** The same drawing at 32×32 as a PNG inside an ICO, for browsers that take no SVG icon. */
export const FAVICON_ICO = Buffer.from(
  [
    'AAABAAEAICAAAAEAIAAGAgAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAbtJREFUeJzsl81LAkEY',
    'xp9ZF4vqUJfoy6IIrKiom126RkUfp44VUcegjtFN6BAdPEUdPHWMIMWg/gSDAonEhOhDTbIIPJSaaG8zglG4lKDueOh3mdmZ',
    'ZZ5n3t13Z18V36idvq2tSSdWGWAhxgZ4W48iQMATI/Lw1v1qqLRFHe3R7BzLdlom/KOMkZ13m1BawkRsMeQyH38ZMI37RmBg',
    'J9ARbmJMmGCt4/d1ZIh5uZdG6EuY3qv7lLQSn5MgLmgi49usqvAXDpIQ2gqBpBkQ2ipjrA2SENoKJKNqDXY0G2FdqoelrwpG',
    'laEQkinCuS+OtZ0Ibh6SOfOaEdhabsDwYHXB4gKxxhDfiG1FO9E0I9DfWYli09NegbwNbB+8QC+YafKKIBHpWVCeaRhwmlEK',
    'Wqf8OWP/j0D964aZ9SDcl7GccUtvFfY3TCiU8o9AMXb5G5oRuLhOoNj4A0nkbWBz7xmn3njmJCsUscYZPw2t9ojmfBl8ioki',
    'kAXXVngF5IEkhDaPAKQZENpKykC7vBuF/kSFtvLo6L6jD7YAvSHMC+1MGoaOzIeiVuPdMEqPKE7Hgq4up7j48dcpozz/BAAA',
    '//+j6IfnAAAABklEQVQDAELCn2M3Nh/BAAAAAElFTkSuQmCC',
  ].join(''),
  'base64',
);

/** `<link>`s for a page's head; `prefix` is the path of the gateway's public base URL. */
export function faviconLinks(prefix = ''): string {
  return `<link rel="icon" href="${prefix}${FAVICON_ICO_PATH}" sizes="32x32">\n<link rel="icon" href="${prefix}${FAVICON_SVG_PATH}" type="image/svg+xml">`;
}

export function registerFaviconRoutes(router: Router): void {
  const serve = (path: string, type: string, body: string | Buffer) =>
    router.get(path, (ctx) => {
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = body;
    });
  serve(FAVICON_ICO_PATH, 'image/x-icon', FAVICON_ICO);
  serve(FAVICON_SVG_PATH, 'image/svg+xml', FAVICON_SVG);
}
