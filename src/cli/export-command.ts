/**
 * `export <ledger|payments> --format csv|parquet --out DIR`: a read model as CSV or Parquet with a
 * signed manifest (docs/audit.md#exports). `export verify DIR [--key PEM]`: checks such a directory
 * with nothing but its files.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CheckpointRecorder } from '../application/audit/checkpoint-recorder';
import { latestSignedCheckpoint, signedCheckpointOf } from '../application/audit/proofs';
import { ledgerBalances } from '../domain/audit/export-figures';
import { EXPORT_MANIFEST_FORMAT, type ExportManifest, MANIFEST_FILE, sha256Hex, signManifest, toCsv } from '../domain/audit/export-manifest';
import { parsePublicKey, publicKeyPem } from '../domain/audit/signed-checkpoint';
import { flag, print, UsageError, withGateway, type Parsed } from './args';
import { EXPORT_FORMATS, EXPORT_SOURCES, type ExportFormat, type ExportSourceName } from './export-sources';
import { verifyExportDirectory } from './export-verify';
import { usageError, type CommandHelp } from './help';

export const exportHelp: CommandHelp = {
  name: 'export',
  summary: 'export a read model as CSV or Parquet with a signed manifest, or verify such an export',
  usage: [
    'usage: npm run gateway -- export <ledger|payments> --format csv|parquet --out DIR',
    '       npm run gateway -- export verify DIR [--key PEM] [--json]',
    '',
    '  ledger|payments  the ledger postings, or the payments (without card tokens, payer emails or',
    '                   3-D Secure parameters), as of a signed audit checkpoint',
    '  verify           check a directory with nothing but its files: the manifest\'s signature,',
    '                   every file\'s SHA-256, no file beside them, and each file\'s rows and (ledger)',
    '                   balances recomputed; exit 1 naming the first thing wrong',
    '  --format         csv or parquet',
    '  --out DIR        where the data file and manifest.json are written (created; must be empty)',
    '  --key PEM        the gateway\'s public key (a PEM file, or the PEM itself) the manifest must be signed with',
    '  --json           print the report as JSON',
  ].join('\n'),
};

async function verifyCommand(p: Parsed, json: boolean): Promise<number> {
  const dir = p.positional[2];
  if (!dir) throw usageError(exportHelp, 'export verify needs a directory');
  const keyFlag = flag(p, 'key');
  let key;
  if (keyFlag !== undefined) {
    key = parsePublicKey(keyFlag.includes('-----BEGIN') ? keyFlag : readFileSync(keyFlag, 'utf8'));
    if (!key) throw new UsageError(`--key ${keyFlag}: not an Ed25519 public key in PEM (SPKI)`);
  }
  const files = new Map(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => [e.name, readFileSync(path.join(dir, e.name))] as const));
  const problem = await verifyExportDirectory(files, key);
  print({ ok: problem === null, problem }, json, () => (problem ? `INVALID: ${problem}` : `OK: ${files.size - 1} files match the signed manifest`));
  return problem ? 1 : 0;
}

/** Reads the source as of a fresh signed checkpoint, writes its data file into `out`, and returns the signed manifest. */
function writeExport(what: ExportSourceName, format: ExportFormat, out: string): Promise<ExportManifest> {
  const source = EXPORT_SOURCES[what];
  const columns = source.columns.map((c) => c.name);
  return withGateway(async (g) => {
    // The read model has caught up (withGateway projects first); it is read in one statement.
    const projectedUpTo = (await g.readModels.checkpoints())[source.projection] ?? 0n;
    // A checkpoint now, unless nothing but the last one was appended since it: what the read model
    // projected is then all under the newest signed checkpoint.
    await new CheckpointRecorder({ store: g.rawStore, clock: g.clock, signer: g.auditSigner }).recordIfMoved();
    const checkpoint = await latestSignedCheckpoint(g.rawStore);
    // The table is one of EXPORT_SOURCES, named at run time: the typed query builder cannot know which.
    const db = g.readDb as unknown as { selectFrom(table: string): any };
    let query = db.selectFrom(source.table).select(columns);
    for (const column of source.orderBy) query = query.orderBy(column);
    const rows = (await query.execute()) as Array<Record<string, unknown>>;
    const bytes = format === 'parquet' ? (await import('../adapters/audit/parquet-table')).toParquet(source.columns, rows) : Buffer.from(toCsv(columns, rows), 'utf8');
    const name = `${what}.${format}`;
    writeFileSync(path.join(out, name), bytes);
    return signManifest(
      {
        format: EXPORT_MANIFEST_FORMAT,
        source: what,
        columns,
        files: [{ name, rows: rows.length, bytes: bytes.length, sha256: sha256Hex(bytes) }],
        projected_up_to: projectedUpTo.toString(),
        created_at: g.clock.now().toISOString(),
        checkpoint: checkpoint ? signedCheckpointOf(checkpoint, g.auditSigner.publicKey) : null,
        ...(what === 'ledger' ? { balances: ledgerBalances(rows) } : {}),
        public_key: publicKeyPem(g.auditSigner.publicKey),
      },
      g.auditSigner,
    );
  });
}

export async function exportCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  const what = p.positional[1];
  if (what === 'verify') return verifyCommand(p, json);
  if (what !== 'ledger' && what !== 'payments') throw usageError(exportHelp, what ? `Nothing called ${what} to export` : undefined);
  const format = flag(p, 'format');
  if (!EXPORT_FORMATS.includes(format as ExportFormat)) throw usageError(exportHelp, 'export needs --format csv or --format parquet');
  const out = flag(p, 'out');
  if (!out) throw usageError(exportHelp, 'export needs --out DIR');
  mkdirSync(out, { recursive: true });
  if (readdirSync(out).length > 0) throw new UsageError(`${out} is not empty`);
  const manifest = await writeExport(what, format as ExportFormat, out);
  writeFileSync(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  print(manifest, json, () => `Exported ${manifest.files[0]!.rows} rows of ${what} to ${path.resolve(out)} (manifest signed, as of position ${manifest.projected_up_to})`);
  return 0;
}
