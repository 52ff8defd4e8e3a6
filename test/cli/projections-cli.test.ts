/**
 * The operator's rebuild tools as real processes on one data directory: seed a store, rebuild the
 * read models from it, verify them, break a row by hand and watch verify catch it and a rebuild
 * repair it.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { cliWithDataDir } from '../support/cli-runner';


describe('npm run gateway -- seed / projections rebuild / projections verify, as processes', function () {
  this.timeout(180_000);
  const cli = cliWithDataDir('gateway-projections-', { timeoutMs: 120_000 });

  const readModels = (work: (db: Database.Database) => void) => {
    const db = new Database(path.join(cli.dataDir, 'read-models.db'));
    try {
      work(db);
    } finally {
      db.close();
    }
  };

  it('seeds, rebuilds, verifies, catches a hand-edited row and repairs it', function () {
    const seeded = cli('seed', '--events', '3000', '--merchants', '2', '--json');
    expect(seeded.code, seeded.stderr).to.equal(0);
    const seed = JSON.parse(seeded.stdout);
    expect(seed.events).to.be.at.least(3000);
    expect(seed.merchants).to.have.length(2);
    // The mix covers what a gateway sees: settled, declined, pending holds, refunds, reversals, voids.
    expect(Object.keys(seed.byStatus)).to.include.members(['SETTLED', 'DECLINED', 'PENDING', 'REFUND', 'REVERSAL', 'VOID']);

    const rebuilt = cli('projections', 'rebuild', '--json');
    expect(rebuilt.code, rebuilt.stderr).to.equal(0);
    const result = JSON.parse(rebuilt.stdout);
    expect(result.events).to.equal(seed.events);
    expect(result.position).to.equal(String(seed.events));
    expect(result.projections).to.include.members(['payments', 'transactions', 'merchants']);
    readModels((db) => {
      const checkpoints = db.prepare('select name, position from projection_checkpoints').all() as Array<{ name: string; position: string }>;
      for (const row of checkpoints) expect(row.position, row.name).to.equal(String(seed.events));
      expect((db.prepare('select count(*) as n from merchants').get() as { n: number }).n).to.equal(2);
    });

    const clean = cli('projections', 'verify');
    expect(clean.code, clean.stderr).to.equal(0);
    expect(clean.stdout.trim()).to.equal('OK');

    let paymentId = '';
    readModels((db) => {
      paymentId = (db.prepare("select payment_id from payments where status = 'SETTLED' limit 1").get() as { payment_id: string }).payment_id;
      db.prepare("update payments set status = 'DECLINED' where payment_id = ?").run(paymentId);
    });

    const broken = cli('projections', 'verify');
    expect(broken.code).to.equal(1);
    expect(broken.stdout).to.contain(`payments payment_id=${paymentId}: status live "DECLINED", rebuilt "SETTLED"`);
    const brokenJson = JSON.parse(cli('projections', 'verify', 'payments', '--json').stdout);
    expect(brokenJson).to.deep.equal({
      ok: false,
      truncated: false,
      differences: [
        { projection: 'payments', table: 'payments', key: { payment_id: paymentId }, kind: 'changed', column: 'status', live: 'DECLINED', rebuilt: 'SETTLED' },
      ],
    });

    expect(cli('projections', 'rebuild', 'payments').code).to.equal(0);
    expect(cli('projections', 'verify', 'payments').stdout.trim()).to.equal('OK');
  });

  it('refuses an unknown projection with a usage error', function () {
    const result = cli('projections', 'rebuild', 'no-such-projection');
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain('Unknown projection no-such-projection');
  });
});
