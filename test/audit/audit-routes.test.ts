/**
 * GET /audit/key, GET /audit/checkpoints/latest and GET /audit/checkpoints: what auditors fetch,
 * without credentials, and check by the signature rather than by who served it.
 */
import { expect } from 'chai';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { checkSignedCheckpoint } from '../../src/application/audit/proofs';
import { AUDIT_CHECKPOINT_STREAM, parseCheckpoint } from '../../src/domain/audit/checkpoint';
import { keyIdOf, parseCheckpointText, parsePublicKey, publicKeyPem, type CheckpointStatement } from '../../src/domain/audit/signed-checkpoint';
import { forEachStore, type TestGateway } from '../support/gateway-harness';

const recorderOf = (g: TestGateway) => new CheckpointRecorder({ store: g.gateway.rawStore, clock: g.gateway.clock, signer: g.gateway.auditSigner });

interface HistoryPage {
  checkpoints: Array<{ checkpoint_text: string }>;
  has_more: boolean;
  next_after: string | null;
}

forEachStore('audit routes', (h) => {
  it('serve the public key as PEM and the newest signed checkpoint, with no credentials', async function () {
    const g = h();
    const key = await g.request('/audit/key');
    expect(key.status).to.equal(200);
    expect(key.text).to.equal(publicKeyPem(g.gateway.auditSigner.publicKey));
    expect(key.headers.get('x-key-id')).to.equal(keyIdOf(parsePublicKey(key.text)!));

    const none = await g.request('/audit/checkpoints/latest');
    expect(none.status).to.equal(404);
    expect(none.body).to.deep.equal({ result: 'ERROR', error_code: 'no_checkpoint', error_message: 'No signed audit checkpoint has been recorded yet' });

    await g.sale(await g.createMerchant());
    const head = await g.gateway.rawStore.headPosition();
    await recorderOf(g).recordIfMoved();
    const latest = await g.request('/audit/checkpoints/latest');
    expect(latest.status).to.equal(200);
    const checked = checkSignedCheckpoint(latest.body, parsePublicKey(key.text)!);
    expect(checked).to.not.be.a('string');
    expect((checked as { statement: { upToPosition: string } }).statement.upToPosition).to.equal(String(head));
  });

  it('Given several signed checkpoints, when an auditor pages through GET /audit/checkpoints, then each comes once, oldest first, signed by the key', async function () {
    const g = h();
    const merchant = await g.createMerchant();
    for (let i = 0; i < 3; i += 1) {
      await g.sale(merchant);
      await recorderOf(g).recordIfMoved();
    }
    // The process that projects may sign more meanwhile: what is stored now is where the pages begin.
    const stored = (await g.gateway.rawStore.readStream(AUDIT_CHECKPOINT_STREAM))
      .map((e) => parseCheckpoint(e.data)?.checkpointText)
      .filter((text): text is string => text !== undefined);
    expect(stored.length).to.be.at.least(3);

    const seen: string[] = [];
    for (let after: string | null = null, pages = 0; ; pages += 1) {
      expect(pages).to.be.below(stored.length + 2);
      const answer = await g.request(`/audit/checkpoints?limit=2${after === null ? '' : `&after=${after}`}`);
      expect(answer.status).to.equal(200);
      const page = answer.body as HistoryPage;
      for (const checkpoint of page.checkpoints) expect(checkSignedCheckpoint(checkpoint, g.gateway.auditSigner.publicKey)).to.not.be.a('string');
      seen.push(...page.checkpoints.map((c) => c.checkpoint_text));
      after = page.next_after;
      if (!page.has_more) break;
    }
    expect(seen.slice(0, stored.length)).to.deep.equal(stored);

    const second = (parseCheckpointText(stored[1]!) as CheckpointStatement).upToPosition;
    const fromSecond = (await g.request(`/audit/checkpoints?after=${second}&limit=1`)).body as HistoryPage;
    expect(fromSecond.checkpoints.map((c) => c.checkpoint_text)).to.deep.equal([stored[2]]);
    expect(fromSecond.next_after).to.equal((parseCheckpointText(stored[2]!) as CheckpointStatement).upToPosition);
    expect((await g.request('/audit/checkpoints?after=9223372036854775807').then((r) => r.body))).to.deep.equal({
      checkpoints: [],
      has_more: false,
      next_after: '9223372036854775807',
    });
  });

  it('Given an after that is no position or a limit out of range, then the request is refused naming the field', async function () {
    const g = h();
    const refused = await g.request('/audit/checkpoints?after=-1&limit=1001');
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal({
      result: 'ERROR',
      error_code: 100000,
      error_message: 'Request data is invalid.',
      errors: [
        { error_code: 100000, error_message: 'after: must be a position: a decimal integer' },
        { error_code: 100000, error_message: 'limit: must be an integer in 1..1000' },
      ],
    });
    expect((await g.request('/audit/checkpoints?limit=0')).status).to.equal(400);
  });
});
