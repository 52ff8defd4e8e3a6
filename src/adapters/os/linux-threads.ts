/**
 * The gateway's threads as the kernel sees them. Each thread the gateway starts names itself
 * (`gw-writer`, `gw-projector`, ...), so `top -H` and `ps -L` show which one is busy, and its CPU
 * time can be read per name from /proc: under load the question is always which thread is full
 * (the HTTP thread, the event store's writer, the projector). Linux only: elsewhere naming does
 * nothing and there are no readings.
 */
import fs from 'node:fs';

const PREFIX = 'gw-';
/** The kernel keeps 15 bytes of a thread's name. */
const NAME_LIMIT = 15;
/** /proc reports CPU time in USER_HZ, which is 100 on every Linux architecture. */
const TICKS_PER_SECOND = 100;

/** The calling thread's kernel id, or null off Linux. */
export function thisThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // "<pid>/task/<tid>"
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Names the calling thread `gw-<role>`. Never the main thread: its name is the process's, which
 * operators find the gateway by. Returns whether it took effect.
 */
export function nameThisThread(role: string): boolean {
  const tid = thisThreadId();
  if (tid === null || tid === process.pid) return false;
  try {
    fs.writeFileSync(`/proc/self/task/${tid}/comm`, `${PREFIX}${role}`.slice(0, NAME_LIMIT));
    return true;
  } catch {
    return false;
  }
}

export interface ThreadCpu {
  /** `main`, a role a thread named itself with, or `runtime` for the rest (V8's helpers, libuv's pool). */
  thread: string;
  /** User and system CPU time of the threads running now under that name. */
  seconds: number;
}

/**
 * CPU time of a process's live threads, summed by name: `pid` is this process by default, or
 * another one on this machine (the benchmarks read their children). Null where /proc cannot tell.
 * A thread that ended takes its time with it, so a restarted thread's count starts again.
 */
export function threadCpuSeconds(pid: number = process.pid): ThreadCpu[] | null {
  if (process.platform !== 'linux') return null;
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const stats: Array<{ tid: number; stat: string }> = [];
  for (const tid of tids) {
    try {
      stats.push({ tid: Number(tid), stat: fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8') });
    } catch {
      // ended while being read
    }
  }
  return cpuByThreadName(pid, stats);
}

/** Sums the CPU time in the `stat` lines of a process's threads by thread name. */
export function cpuByThreadName(pid: number, stats: ReadonlyArray<{ tid: number; stat: string }>): ThreadCpu[] {
  // Whole ticks, summed before dividing, so the seconds read 1.43 and not 1.4300000000000002.
  const ticksByThread = new Map<string, number>();
  for (const { tid, stat } of stats) {
    // "tid (name) state ppid ...": the name may hold spaces and parentheses, so split after the last ')'.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
    const thread = tid === pid ? 'main' : name.startsWith(PREFIX) ? name.slice(PREFIX.length) : 'runtime';
    ticksByThread.set(thread, (ticksByThread.get(thread) ?? 0) + ticks);
  }
  return [...ticksByThread].map(([thread, ticks]) => ({ thread, seconds: ticks / TICKS_PER_SECOND }));
}
