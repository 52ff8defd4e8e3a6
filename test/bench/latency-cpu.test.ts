import { expect } from 'chai';
import { cpuPerRequest, describeCpu } from './latency';

describe('bench: CPU per request of an open-loop rate', function () {
  it('Given thread readings before and after 1,000 requests at 500/s, then each thread\'s milliseconds per request, a thread started meanwhile counted from zero, and the cores kept busy', function () {
    const before = [
      { thread: 'main', seconds: 10 },
      { thread: 'writer', seconds: 2 },
    ];
    const after = [
      { thread: 'main', seconds: 11 },
      { thread: 'writer', seconds: 2.5 },
      { thread: 'reports', seconds: 0.1 },
    ];
    const cpu = cpuPerRequest(500, 1_000, before, after, { user: 150_000, system: 50_000 })!;
    expect(cpu.byThread).to.deep.equal({ main: 1, writer: 0.5, reports: 0.1 });
    expect(cpu.serverMs).to.equal(1.6);
    expect(cpu.senderMs).to.equal(0.2);
    expect(cpu.coresAtRate).to.equal(0.9);
    expect(describeCpu(cpu)).to.equal('1.60 ms (main 1.00 · writer 0.50 · reports 0.10), sender 0.20 ms');
  });

  it('Given no readings (not Linux) or no answered request, then nothing', function () {
    expect(cpuPerRequest(300, 100, null, null, { user: 0, system: 0 })).to.equal(null);
    expect(cpuPerRequest(300, 0, [], [], { user: 0, system: 0 })).to.equal(null);
  });
});
