/**
 * How many failed authentications the API tolerates before it stops listening to a client
 * (docs/api-notes.md, Rate limits on failed authentication). Every limit is per window and per
 * API process; 0 turns that counter off.
 */
export interface AuthThrottleSettings {
  /** Failures per subject (a merchant, the admin token, session tokens) and address; the one clients meet. */
  subjectIpLimit: number;
  /** Failures per address, whatever the subject: one client trying many keys. */
  ipLimit: number;
  /** Failures per merchant across addresses: a high ceiling against guessing from many addresses. */
  subjectLimit: number;
  /** Refill period of every counter, and how long a lock lasts. */
  windowMs: number;
  /** Names each counter keeps at most (least recently used forgotten first). */
  maxTracked: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleSettings = {
  subjectIpLimit: 10,
  ipLimit: 50,
  subjectLimit: 500,
  windowMs: 60_000,
  maxTracked: 100_000,
};
