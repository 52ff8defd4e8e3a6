/**
 * `export <ledger|payments> --format csv --out DIR`: a read model as CSV with a signed manifest
 * (docs/audit.md#exports). `export verify DIR [--key PEM]`: checks such a directory with nothing
 * but its files.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CheckpointRecorder } from '../application/audit/checkpoint-recorder';
import { latestSignedCheckpoint, signedCheckpointOf } from '../application/audit/proofs';
import {
  EXPORT_MANIFEST_FORMAT,
  MANIFEST_FILE,
  sha256Hex,
  signManifest,
  toCsv,
  verifyExport,
} from '../domain/audit/export-manifest';
import { parsePublicKey, publicKeyPem } from '../domain/audit/signed-checkpoint';
import { flag, print, UsageError, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

/**
 * What each source exports: its table, its columns in order, and the order of its rows. The
 * payments export leaves out what is not the auditor's to hold: card vault tokens, the payer's
 * email, the 3-D Secure redirect parameters and the folded state.
 */
const SOURCES = {
  ledger: {
    table: 'ledger_postings',
    projection: 'ledger',
    columns: ['posting_set_id', 'line', 'merchant_id', 'currency', 'account', 'amount', 'payment_id', 'operation_id', 'event_type', 'event_position'],
    orderBy: ['event_position', 'posting_set_id', 'line'],
  },
  payments: {
    table: 'payments',
    projection: 'payments',
    columns: [
      'payment_id', 'merchant_id', 'order_id', 'channel', 'kind', 'status', 'phase', 'currency', 'amount', 'amount_text', 'held_amount',
      'settled_amount', 'refunded_amount', 'reversed_amount', 'descriptor', 'decline_reason', 'card_mask', 'card_brand', 'initiated_at',
      'updated_at', 'initiated_position', 'stream_version',
    ],
    orderBy: ['initiated_position', 'payment_id'],
  },
} as const;

export const exportHelp: CommandHelp = {
  name: 'export',
  summary: 'export a read model as CSV with a signed manifest, or verify such an export',
  usage: [
    'usage: npm run gateway -- export <ledger|payments> --format csv --out DIR',
    '       npm run gateway -- export verify DIR [--key PEM] [--json]',
    '',
    '  ledger|payments  the ledger postings, or the payments (without card tokens, payer emails or',
    '                   3-D Secure parameters), as of a signed audit checkpoint',
    '  verify           check a directory with nothing but its files: the manifest\'s signature,',
    '                   every file\'s SHA-256, no file beside them; exit 1 naming the first thing wrong',
    '  --format csv     the only format',
    '  --out DIR        where the CSV file and manifest.json are written (created; must be empty)',
    '  --key PEM        the gateway\'s public key (a PEM file, or the PEM itself) the manifest must be signed with',
    '  --json           print the report as JSON',
  ].join('\n'),
};

export async function exportCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  const what = p.positional[1];
  if (what === 'verify') {
    const dir = p.positional[2];
    if (!dir) throw usageError(exportHelp, 'export verify needs a directory');
    const keyFlag = flag(p, 'key');
    let key;
    if (keyFlag !== undefined) {
      key = parsePublicKey(keyFlag.includes('-----BEGIN') ? keyFlag : readFileSync(keyFlag, 'utf8'));
      if (!key) throw new UsageError(`--key ${keyFlag}: not an Ed25519 public key in PEM (SPKI)`);
    }
    const files = new Map(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => [e.name, readFileSync(path.join(dir, e.name))] as const));
    const problem = verifyExport(files, key);
    print({ ok: problem === null, problem }, json, () => (problem ? `INVALID: ${problem}` : `OK: ${files.size - 1} files match the signed manifest`));
    return problem ? 1 : 0;
  }
  if (what !== 'ledger' && what !== 'payments') throw usageError(exportHelp, what ? `Nothing called ${what} to export` : undefined);
  if (flag(p, 'format') !== 'csv') throw usageError(exportHelp, 'export needs --format csv');
  const out = flag(p, 'out');
  if (!out) throw usageError(exportHelp, 'export needs --out DIR');
  mkdirSync(out, { recursive: true });
  if (readdirSync(out).length > 0) throw new UsageError(`${out} is not empty`);
  const source = SOURCES[what];

  const manifest = await withGateway(async (g) => {
    // The read model has caught up (withGateway projects first); it is read in one statement.
    const projectedUpTo = (await g.readModels.checkpoints())[source.projection] ?? 0n;
    // A checkpoint now, unless nothing but the last one was appended since it: what the read model
    // projected is then all under the newest signed checkpoint.
    await new CheckpointRecorder({ store: g.rawStore, clock: g.clock, signer: g.auditSigner }).recordIfMoved();
    const checkpoint = await latestSignedCheckpoint(g.rawStore);
    // The table is one of SOURCES, named at run time: the typed query builder cannot know which.
    const db = g.readDb as unknown as { selectFrom(table: string): any };
    let query = db.selectFrom(source.table).select([...source.columns]);
    for (const column of source.orderBy) query = query.orderBy(column);
    const rows = (await query.execute()) as Array<Record<string, unknown>>;
    const csv = Buffer.from(toCsv(source.columns, rows), 'utf8');
    const name = `${what}.csv`;
    writeFileSync(path.join(out, name), csv);
    return signManifest(
      {
        format: EXPORT_MANIFEST_FORMAT,
        source: what,
        columns: [...source.columns],
        files: [{ name, rows: rows.length, bytes: csv.length, sha256: sha256Hex(csv) }],
        projected_up_to: projectedUpTo.toString(),
        created_at: g.clock.now().toISOString(),
        checkpoint: checkpoint ? signedCheckpointOf(checkpoint, g.auditSigner.publicKey) : null,
        public_key: publicKeyPem(g.auditSigner.publicKey),
      },
      g.auditSigner,
    );
  });
  writeFileSync(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  print(manifest, json, () => `Exported ${manifest.files[0]!.rows} rows of ${what} to ${path.resolve(out)} (manifest signed, as of position ${manifest.projected_up_to})`);
  return 0;
}
