/**
 * GET /audit/key and GET /audit/checkpoints/latest: what auditors fetch, without credentials, and
 * check by the signature rather than by who served it.
 */
import { expect } from 'chai';
import { CheckpointRecorder } from '../../src/application/audit/checkpoint-recorder';
import { checkSignedCheckpoint } from '../../src/application/audit/proofs';
import { keyIdOf, parsePublicKey, publicKeyPem } from '../../src/domain/audit/signed-checkpoint';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

describe('audit routes', function () {
  this.timeout(30_000);
  let g: TestGateway;

  before(async function () {
    g = await startTestGateway({ kind: 'sqlite' });
  });
  after(async function () {
    await g.stop();
  });

  it('serve the public key as PEM and the newest signed checkpoint, with no credentials', async function () {
    const key = await g.request('/audit/key');
    expect(key.status).to.equal(200);
    expect(key.text).to.equal(publicKeyPem(g.gateway.auditSigner.publicKey));
    expect(key.headers.get('x-key-id')).to.equal(keyIdOf(parsePublicKey(key.text)!));

    const none = await g.request('/audit/checkpoints/latest');
    expect(none.status).to.equal(404);

    await g.sale(await g.createMerchant());
    const head = await g.gateway.rawStore.headPosition();
    await new CheckpointRecorder({ store: g.gateway.rawStore, clock: g.gateway.clock, signer: g.gateway.auditSigner }).recordIfMoved();
    const latest = await g.request('/audit/checkpoints/latest');
    expect(latest.status).to.equal(200);
    const checked = checkSignedCheckpoint(latest.body, parsePublicKey(key.text)!);
    expect(checked).to.not.be.a('string');
    expect((checked as { statement: { upToPosition: string } }).statement.upToPosition).to.equal(String(head));
  });
});
