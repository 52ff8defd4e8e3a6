import { expect } from 'chai';
import { AuthThrottle, PROVEN_FOR_MS, type AuthSubject } from '../../src/application/auth-throttle/auth-throttle';
import { FailureCounters } from '../../src/application/auth-throttle/failure-counters';
import type { AuthThrottleSettings } from '../../src/domain/auth-throttle/throttle-settings';

class ManualClock {
  ms = Date.parse('2030-01-01T00:00:00Z');
  now(): Date {
    return new Date(this.ms);
  }
}

interface Logged {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

const merchantA: AuthSubject = { kind: 'merchant', merchantId: 'merchant-a' };
const merchantB: AuthSubject = { kind: 'merchant', merchantId: 'merchant-b' };
const admin: AuthSubject = { kind: 'admin' };

function setup(overrides: Partial<AuthThrottleSettings> = {}) {
  const clock = new ManualClock();
  const logged: Logged[] = [];
  const log = (level: Logged['level']) => (message: string, fields?: Record<string, unknown>) => logged.push({ level, message, fields });
  const throttle = new AuthThrottle(
    { subjectIpLimit: 3, ipLimit: 5, subjectLimit: 8, windowMs: 60_000, maxTracked: 1000, ...overrides },
    { clock, logger: { info: log('info'), warn: log('warn'), error: log('error') } },
  );
  const failTimes = (n: number, ip: string, subject: AuthSubject | null) => {
    for (let i = 0; i < n; i++) throttle.failed(ip, subject);
  };
  return { clock, logged, throttle, failTimes };
}

describe('limits on failed authentication', () => {
  describe('per subject and address', () => {
    it('Given limit failures for merchant A from one address, then every request of that address for A is refused until the window passes', () => {
      const { clock, throttle, failTimes } = setup();
      failTimes(2, '203.0.113.1', merchantA);
      expect(throttle.admit('203.0.113.1', merchantA)).to.equal(null);
      failTimes(1, '203.0.113.1', merchantA);
      expect(throttle.admit('203.0.113.1', merchantA)).to.deep.equal({ retryAfterSeconds: 60, counter: 'subject-ip' });
      clock.ms += 59_001;
      expect(throttle.admit('203.0.113.1', merchantA)).to.deep.equal({ retryAfterSeconds: 1, counter: 'subject-ip' });
      clock.ms += 999;
      expect(throttle.admit('203.0.113.1', merchantA)).to.equal(null);
    });

    it('Given A is locked for one address, then A from other addresses and B from that address are still heard', () => {
      const { throttle, failTimes } = setup();
      failTimes(3, '203.0.113.1', merchantA);
      expect(throttle.admit('203.0.113.2', merchantA)).to.equal(null);
      expect(throttle.admit('203.0.113.1', merchantB)).to.equal(null);
    });

    it('Given an address that authenticated for A before, when it then fails limit times, then it is refused too (it may be a guesser sharing the address)', () => {
      const { throttle, failTimes } = setup();
      throttle.succeeded('203.0.113.1', merchantA);
      failTimes(3, '203.0.113.1', merchantA);
      expect(throttle.admit('203.0.113.1', merchantA)?.counter).to.equal('subject-ip');
    });

    it('Given wrong admin tokens from one address, then that address is refused for the admin API only', () => {
      const { throttle, failTimes } = setup();
      failTimes(3, '198.51.100.9', admin);
      expect(throttle.admit('198.51.100.9', admin)?.counter).to.equal('subject-ip');
      expect(throttle.admit('198.51.100.10', admin)).to.equal(null);
      expect(throttle.admit('198.51.100.9', merchantA)).to.equal(null);
    });

    it('Given a lock, then it is logged as a warning naming the address, never a secret', () => {
      const { logged, failTimes } = setup();
      failTimes(3, '203.0.113.1', merchantA);
      const warning = logged.find((l) => l.level === 'warn');
      expect(warning?.fields).to.include({ ip: '203.0.113.1', subject: 'merchant:merchant-a', limit: 3 });
    });
  });

  describe('per address', () => {
    it('Given failures for many merchants from one address, then the address is refused for any merchant it has not authenticated for', () => {
      const { throttle, failTimes } = setup();
      throttle.succeeded('203.0.113.1', merchantB);
      for (let i = 0; i < 5; i++) failTimes(1, '203.0.113.1', { kind: 'merchant', merchantId: `m-${i}` });
      expect(throttle.admit('203.0.113.1', merchantA)?.counter).to.equal('ip');
      expect(throttle.admit('203.0.113.1', null)?.counter).to.equal('ip');
      expect(throttle.admit('203.0.113.1', admin)?.counter).to.equal('ip');
      // An address that holds B's password has nothing left to guess there.
      expect(throttle.admit('203.0.113.1', merchantB)).to.equal(null);
      expect(throttle.admit('203.0.113.2', merchantA)).to.equal(null);
    });

    it('Given unknown keys from one address, then they count against the address only', () => {
      const { throttle, failTimes } = setup();
      failTimes(4, '203.0.113.1', null);
      expect(throttle.admit('203.0.113.1', merchantA)).to.equal(null);
      failTimes(1, '203.0.113.1', null);
      expect(throttle.admit('203.0.113.1', merchantA)?.counter).to.equal('ip');
    });

    it('Given a proof older than a day, then it no longer exempts the address', () => {
      const { clock, throttle, failTimes } = setup();
      throttle.succeeded('203.0.113.1', merchantB);
      clock.ms += PROVEN_FOR_MS;
      failTimes(5, '203.0.113.1', null);
      expect(throttle.admit('203.0.113.1', merchantB)?.counter).to.equal('ip');
    });
  });

  describe('per merchant across addresses', () => {
    it('Given failures for A from many addresses above the ceiling, then new addresses are refused for A, its proven addresses are not, and it is logged as an error', () => {
      const { throttle, logged } = setup();
      throttle.succeeded('192.0.2.10', merchantA);
      for (let i = 0; i < 8; i++) throttle.failed(`203.0.113.${i}`, merchantA);
      expect(throttle.admit('203.0.113.200', merchantA)?.counter).to.equal('subject');
      expect(throttle.admit('192.0.2.10', merchantA)).to.equal(null);
      expect(throttle.admit('203.0.113.200', merchantB)).to.equal(null);
      const alarm = logged.find((l) => l.level === 'error');
      expect(alarm?.fields).to.include({ subject: 'merchant:merchant-a', limit: 8 });
    });

    it('Given admin tokens guessed from many addresses, then no ceiling applies (only merchants have one)', () => {
      const { throttle } = setup();
      for (let i = 0; i < 20; i++) throttle.failed(`203.0.113.${i}`, admin);
      expect(throttle.admit('203.0.113.200', admin)).to.equal(null);
    });
  });

  describe('settings', () => {
    it('Given every limit 0, then nothing is ever refused', () => {
      const { throttle, failTimes } = setup({ subjectIpLimit: 0, ipLimit: 0, subjectLimit: 0 });
      failTimes(100, '203.0.113.1', merchantA);
      expect(throttle.enabled).to.equal(false);
      expect(throttle.admit('203.0.113.1', merchantA)).to.equal(null);
    });

    it('Given only the address limit off, then the subject limit still applies', () => {
      const { throttle, failTimes } = setup({ ipLimit: 0 });
      failTimes(3, '203.0.113.1', merchantA);
      expect(throttle.admit('203.0.113.1', merchantA)?.counter).to.equal('subject-ip');
    });

    it('Given two locks apply, then Retry-After names the later end', () => {
      const { clock, throttle, failTimes } = setup();
      failTimes(3, '203.0.113.1', merchantA);
      clock.ms += 30_000;
      failTimes(5, '203.0.113.1', merchantB);
      expect(throttle.admit('203.0.113.1', merchantA)).to.deep.equal({ retryAfterSeconds: 60, counter: 'ip' });
    });

    it('Given an address of megabytes (a forged X-Forwarded-For), then it is kept short and still counted', () => {
      const { throttle, failTimes } = setup();
      const huge = 'x'.repeat(1_000_000);
      failTimes(3, huge, merchantA);
      expect(throttle.admit(huge, merchantA)?.counter).to.equal('subject-ip');
    });
  });

  describe('bounded memory', () => {
    it('Given far more failing names than it may track, then it keeps at most maxTracked and forgets the least recently failed', () => {
      const counters = new FailureCounters({ limit: 1, windowMs: 60_000 }, 100);
      for (let i = 0; i < 10_000; i++) counters.fail(`name-${i}`, 1000);
      expect(counters.size).to.equal(100);
      expect(counters.lockRemaining('name-9999', 1000)).to.equal(60_000);
      expect(counters.lockRemaining('name-0', 1000)).to.equal(0);
    });

    it('Given a name that keeps failing, then a flood of new names evicts the names idle longer first', () => {
      const counters = new FailureCounters({ limit: 3, windowMs: 60_000 }, 100);
      for (let i = 0; i < 100; i++) counters.fail(`old-${i}`, 0);
      counters.fail('old-0', 0);
      for (let i = 0; i < 99; i++) counters.fail(`new-${i}`, 0);
      // old-0 failed after old-1..old-99, so they went first and its count survived: one more locks it.
      expect(counters.fail('old-0', 0)).to.equal(true);
      expect(counters.fail('old-1', 0)).to.equal(false);
      expect(counters.size).to.equal(100);
    });

    it('Given the whole throttle under a flood of addresses, then every counter stays within maxTracked', () => {
      const { throttle } = setup({ maxTracked: 200 });
      for (let i = 0; i < 5000; i++) {
        const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        throttle.failed(ip, { kind: 'merchant', merchantId: `m-${i}` });
        throttle.succeeded(ip, merchantA);
      }
      const sizes = throttle as unknown as Record<string, { size: number } | null>;
      for (const name of ['bySubjectIp', 'byIp', 'bySubject', 'proven']) expect(sizes[name]?.size, name).to.be.at.most(200);
    });
  });
});
