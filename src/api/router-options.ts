/**
 * Options of every @koa/router of the app, the shared one and those nested under a prefix: paths
 * match case-sensitively and without a spare trailing slash, so a path has exactly one spelling
 * (`/POST`, `/post/` and `/ADMIN/clock` are 404s).
 */
export const ROUTER_OPTIONS = { sensitive: true, strict: true } as const;
