import { expect } from 'chai';
import { loadConfig, projectorGatherMsOf } from '../../src/config';

const base = { DATA_DIR: '/tmp/unused', GATEWAY_LOG_LEVEL: 'silent' };

describe("The projector's gathering under load", () => {
  it('Given no PROJECTOR_GATHER_MS, then the projector thread of the one-process gateway gathers 100 ms and a projector process 20 ms', () => {
    const config = loadConfig(base);
    expect(projectorGatherMsOf(config, 'thread')).to.equal(100);
    expect(projectorGatherMsOf(config, 'process')).to.equal(20);
  });

  it('Given PROJECTOR_GATHER_MS, then both gather that long, 0 included', () => {
    for (const value of ['0', '250']) {
      const config = loadConfig({ ...base, PROJECTOR_GATHER_MS: value });
      expect(projectorGatherMsOf(config, 'thread')).to.equal(Number(value));
      expect(projectorGatherMsOf(config, 'process')).to.equal(Number(value));
    }
  });

  it('Given a PROJECTOR_GATHER_MS out of range, then the gateway refuses to start, naming it', () => {
    expect(() => loadConfig({ ...base, PROJECTOR_GATHER_MS: '60001' })).to.throw(/PROJECTOR_GATHER_MS/);
  });
});
