/**
 * Lowers the scheduling priority of the calling thread, for work that is never on a request's
 * path (projections, the periodic workers). When the cores are all busy, the kernel otherwise shares them evenly, and a
 * projection batch competes with the very requests whose events it projects.
 */
import os from 'node:os';
import { thisThreadId } from '../adapters/os/linux-threads';

/**
 * Adds `niceness` (1-19) to the calling thread's nice value. On Linux a thread has a priority of its
 * own, set through its thread id; elsewhere this does nothing. Lowering a priority needs no
 * privilege. Returns whether it took effect.
 */
export function lowerThisThreadPriority(niceness: number): boolean {
  if (niceness <= 0) return false;
  // setpriority(2) given a thread id sets that thread alone.
  const tid = thisThreadId();
  if (tid === null) return false;
  try {
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + niceness));
    return true;
  } catch {
    return false;
  }
}
