/**
 * The `/post` allowlist's names, exhaustive and case-sensitive. `s2sActions` is a record over them,
 * so a name added here does not compile until its schema and handler are there too.
 */
export const S2S_ACTION_NAMES = [
  'SALE',
  'CREDIT2VIRTUAL',
  'GET_TRANS_STATUS',
  'GET_TRANS_STATUS_BY_ORDER',
  'CAPTURE',
  'VOID',
  'CREDITVOID',
  'RECURRING_SALE',
  'RECURRING_DEBIT',
  'CREATE_SCHEDULE',
  'UPDATE_SCHEDULE',
  'DELETE_SCHEDULE',
] as const;

export type S2sActionName = (typeof S2S_ACTION_NAMES)[number];

/** Whether `name` is an action of the allowlist (anything else is 404). */
export const isS2sActionName = (name: unknown): name is S2sActionName => typeof name === 'string' && (S2S_ACTION_NAMES as readonly string[]).includes(name);
