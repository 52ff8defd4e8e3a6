/**
 * The data directory holds payer data, stored cards and the vault key: only the account that runs
 * the gateway may read it. New files are created owner-only by the process's file mode mask (SQLite
 * creates its journal files long after the database is opened, so a chmod at start would not reach
 * them), and a directory written by an earlier release with looser modes is tightened when opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** Files the gateway keeps in its data directory; nothing else found there is touched. */
const GATEWAY_FILE = /^(events|read-models|vault)\.db(-wal|-shm|-journal)?$|^vault\.key$|^audit-signing\.key$|^demo-merchant\.json$/;

/** Every file this process creates from now on is readable and writable by its owner only. */
export function createFilesOwnerOnly(): void {
  // The mask is per process; worker threads inherit it and may not set it.
  if (isMainThread && process.platform !== 'win32') process.umask(0o077);
}

export function preparePrivateDataDir(dir: string): void {
  createFilesOwnerOnly();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const files = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && GATEWAY_FILE.test(e.name));
  // A directory of someone else's that merely was named as DATA_DIR (and holds nothing of ours) is left alone.
  if (files.length > 0 || fs.readdirSync(dir).length === 0) tighten(dir, 0o700);
  for (const file of files) tighten(path.join(dir, file.name), 0o600);
}

function tighten(target: string, mode: number): void {
  const stat = fs.statSync(target);
  if ((stat.mode & 0o777 & ~mode) !== 0 && stat.uid === process.getuid?.()) fs.chmodSync(target, stat.mode & mode);
}
