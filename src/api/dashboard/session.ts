/**
 * Dashboard sessions: a cookie sealed with AES-256-GCM under a key derived from the vault key, so
 * every API process of a deployment opens every other's sessions without shared state, and nobody
 * can read or forge one. It holds the session's id, its CSRF token, when it expires, and a
 * fingerprint of the admin token it was opened with: changing ADMIN_TOKEN ends every session.
 *
 * Signing out forgets the session in this process at once (and the browser drops the cookie); other
 * processes honour a copied cookie until it expires, at most SESSION_TTL_MS.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_TTL_MS = 8 * 60 * 60_000;
const REVOKED_MAX = 10_000;

export interface DashboardSession {
  id: string;
  csrf: string;
  expiresAt: number;
}

interface Sealed {
  v: 1;
  sid: string;
  csrf: string;
  exp: number;
  tok: string;
}

export class DashboardSessions {
  private readonly key: Buffer;
  private readonly tokenPrint: string;
  /** Sessions signed out here: id → when it would have expired. */
  private readonly revoked = new Map<string, number>();

  constructor(options: { key: Buffer; adminToken: string; now?: () => number }) {
    if (options.key.length !== 32) throw new Error('the dashboard session key must be 32 bytes');
    this.key = options.key;
    this.tokenPrint = createHmac('sha256', options.key).update(`admin-token:${options.adminToken}`).digest('base64url').slice(0, 22);
    this.now = options.now ?? Date.now;
  }

  private readonly now: () => number;

  /** A new session and the cookie value that carries it. */
  open(): { session: DashboardSession; cookie: string } {
    const session: DashboardSession = {
      id: randomBytes(16).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      expiresAt: this.now() + SESSION_TTL_MS,
    };
    const sealed: Sealed = { v: 1, sid: session.id, csrf: session.csrf, exp: session.expiresAt, tok: this.tokenPrint };
    return { session, cookie: this.seal(sealed) };
  }

  /** The session a cookie carries, or null: unreadable, forged, expired, signed out, or of another admin token. */
  read(cookie: string | undefined): DashboardSession | null {
    if (!cookie || cookie.length > 512) return null;
    const sealed = this.unseal(cookie);
    if (!sealed || sealed.v !== 1 || typeof sealed.sid !== 'string' || typeof sealed.csrf !== 'string' || typeof sealed.exp !== 'number') return null;
    if (sealed.exp <= this.now() || !sameText(sealed.tok, this.tokenPrint) || this.revoked.has(sealed.sid)) return null;
    return { id: sealed.sid, csrf: sealed.csrf, expiresAt: sealed.exp };
  }

  /** Signs a session out in this process. */
  revoke(session: DashboardSession): void {
    const now = this.now();
    for (const [id, until] of this.revoked) if (until <= now) this.revoked.delete(id);
    if (this.revoked.size >= REVOKED_MAX) this.revoked.delete(this.revoked.keys().next().value!);
    this.revoked.set(session.id, session.expiresAt);
  }

  /** Whether a form's CSRF token is the session's, compared in constant time. */
  static csrfMatches(session: DashboardSession, presented: unknown): boolean {
    return typeof presented === 'string' && sameText(presented, session.csrf);
  }

  private seal(payload: Sealed): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from('dashboard-session/1'));
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  private unseal(text: string): Sealed | null {
    try {
      const raw = Buffer.from(text, 'base64url');
      if (raw.length < 12 + 16 + 2) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from('dashboard-session/1'));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      const plain = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as Sealed;
    } catch {
      return null;
    }
  }
}

/** Compares two texts in constant time for their length (lengths are not secret here). */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
