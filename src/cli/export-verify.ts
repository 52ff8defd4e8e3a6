/**
 * `export verify`: a directory checked with nothing but its files. The manifest's signature, its
 * checkpoint and every file's bytes first (export-manifest.ts), then each file decoded, CSV or
 * Parquet by its name, and its figures recomputed: its columns, its row count and, for the ledger,
 * every account's balance by merchant and currency.
 */
import type { KeyObject } from 'node:crypto';
import { parseCsv } from '../domain/audit/csv-reading';
import { balancesProblem, ledgerBalances, type ExportRow } from '../domain/audit/export-figures';
import { type ExportManifest, MANIFEST_FILE, verifyExport } from '../domain/audit/export-manifest';

type DecodedFile = { columns: string[]; rows: ExportRow[] } | string;

async function decode(name: string, bytes: Buffer): Promise<DecodedFile> {
  if (name.endsWith('.parquet')) {
    const { readParquet } = await import('../adapters/audit/parquet-table');
    const table = await readParquet(bytes);
    if (typeof table === 'string') return table;
    // The footer's count is what a reader trusts first; it must agree with the rows decoded.
    if (table.rowCount !== table.rows.length) return `its footer counts ${table.rowCount} rows, its pages hold ${table.rows.length}`;
    return table;
  }
  if (name.endsWith('.csv')) {
    const csv = parseCsv(bytes.toString('utf8'));
    if (typeof csv === 'string') return `it is not CSV as exports write it: ${csv}`;
    return { columns: csv.columns, rows: csv.rows.map((values) => Object.fromEntries(csv.columns.map((c, i) => [c, values[i]]))) };
  }
  return 'it is neither .csv nor .parquet';
}

/** The rows of a listed file, or the first way its content disagrees with the manifest's columns and row count. */
async function rowsOf(manifest: ExportManifest, name: string, bytes: Buffer, expectedRows: number): Promise<ExportRow[] | string> {
  const table = await decode(name, bytes);
  if (typeof table === 'string') return `${name}: ${table}`;
  if (table.columns.join(',') !== manifest.columns.join(',')) return `${name} has the columns ${table.columns.join(',')}, the manifest lists ${manifest.columns.join(',')}`;
  if (table.rows.length !== expectedRows) return `${name} holds ${table.rows.length} rows, the manifest says ${expectedRows}`;
  return table.rows;
}

/** Null when the directory's files are the export the manifest signs, else the first thing wrong. */
export async function verifyExportDirectory(files: ReadonlyMap<string, Buffer>, expectedKey?: KeyObject): Promise<string | null> {
  const problem = verifyExport(files, expectedKey);
  if (problem) return problem;
  const manifest = JSON.parse(files.get(MANIFEST_FILE)!.toString('utf8')) as ExportManifest;
  const rows: ExportRow[] = [];
  for (const entry of manifest.files) {
    const read = await rowsOf(manifest, entry.name, files.get(entry.name)!, entry.rows);
    if (typeof read === 'string') return read;
    for (const row of read) rows.push(row);
  }
  // A manifest made before exports stated balances is checked for everything else.
  if (manifest.source !== 'ledger' || !Array.isArray(manifest.balances)) return null;
  const listed = manifest.files.map((f) => f.name).join(', ');
  let recomputed;
  try {
    recomputed = ledgerBalances(rows);
  } catch (error) {
    return `${listed}: ${(error as Error).message}`;
  }
  return balancesProblem(listed, recomputed, manifest.balances);
}
