/**
 * A gateway must not serve a log that was tampered with as if nothing happened. Before a process
 * starts serving, it verifies the newest audit checkpoint's range and every event after it (all of
 * the log when no checkpoint exists yet): a changed, removed or reordered recent event, or a
 * checkpoint that no longer matches, stops the start. Older history is `audit verify`'s to walk.
 */
import type { EventStore } from '../ports/event-store';
import { describeBroken, verifyEventLog, type AuditReport } from './verifier';

export class BrokenLogError extends Error {
  constructor(readonly report: AuditReport) {
    super(`The event log failed verification: ${describeBroken(report.broken!)}`);
    this.name = 'BrokenLogError';
  }
}

export interface StartCheckOptions {
  /** EventStoreDB history written before chains existed carries no hashes (see VerifyOptions). */
  allowUnchainedHistory: boolean;
  /** Start anyway (forensics): the break is reported, not refused. */
  allowBrokenLog: boolean;
}

/** Resolves with the report when the log verifies (or a break is allowed); rejects with BrokenLogError otherwise. */
export async function checkLogAtStart(rawStore: EventStore, options: StartCheckOptions): Promise<AuditReport> {
  const report = await verifyEventLog(rawStore, { fromLatestCheckpoint: true, allowUnchainedHistory: options.allowUnchainedHistory });
  if (!report.ok && !options.allowBrokenLog) throw new BrokenLogError(report);
  return report;
}
