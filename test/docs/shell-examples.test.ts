/**
 * The docs' shell examples run: every ```sh block of every page under docs/ runs against a started
 * gateway (its own data directory, a free port), a page's blocks in order in one shell session, and
 * each documented answer is checked (conventions: shell-examples.ts and README.md, "Examples in the
 * docs"). No answer may be a refusal the page does not show.
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, docFiles, readDoc } from './markdown';
import { answersOf, jsonAnswers, mismatches, notRunMarkers, pageScript, parseDocumented, shellBlocks, NOT_RUN } from './shell-examples';

/** The base URL and data directory the pages are written for. */
const DOCUMENTED_BASE = 'http://127.0.0.1:8080';

/** Pages with a block to run. */
const pages = docFiles().filter((page) => page.startsWith('docs/') && shellBlocks(readDoc(page)).some((block) => block.notRun === null));

/**
 * A page's script as it runs here: against this gateway and data directory, and with
 * `npm run gateway --` as the command that script stands for (package.json), without npm's own start.
 */
function asRunHere(script: string, baseUrl: string): string {
  const gateway = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { gateway: string } }).scripts.gateway;
  return script
    .split(DOCUMENTED_BASE)
    .join(baseUrl)
    .replace(/\.\/data\//g, '$DATA_DIR/')
    .replace(/\bnpm run (?:-s )?gateway --(?= )/g, gateway);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function runScript(script: string, dataDir: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-s'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(script);
  });
}

describe('Docs: the shell examples run and answer as documented', function () {
  this.timeout(180_000);
  let gateway: ChildProcess | null = null;
  let baseUrl = '';
  let dataDir = '';

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-doc-examples-'));
    // A port of its own, named: the URLs the gateway hands out (redirect pages) carry it.
    const port = await freePort();
    gateway = spawn(process.execPath, ['src/cli/launch.cjs', 'main'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    gateway.stdout!.on('data', (chunk) => (out += chunk));
    gateway.stderr!.on('data', (chunk) => (out += chunk));
    const deadline = Date.now() + 60_000;
    while (!/listening on (http:\/\/\S+)/.test(out) || !/password/.test(out)) {
      if (Date.now() > deadline || gateway.exitCode !== null) throw new Error(`the gateway did not start:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    baseUrl = /listening on (http:\/\/\S+)/.exec(out)![1]!;
  });

  after(async () => {
    if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
      const exited = new Promise((resolve) => gateway!.once('exit', resolve));
      gateway.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given docs/, then the pages with shell examples include the ones merchants copy from', () => {
    expect(pages).to.include.members(['docs/apm.md', 'docs/payouts.md']);
  });

  it('Given a block that is run, then it neither reinstalls the dependencies nor runs the benchmarks (which a test run shares or cannot afford)', () => {
    const forbidden = /\bnpm (?:ci|install|i|run bench)\b/;
    for (const page of pages) {
      for (const block of shellBlocks(readDoc(page)).filter((b) => b.notRun === null)) {
        expect(block.body.filter((line) => forbidden.test(line)), `${page}:${block.line}`).to.deep.equal([]);
      }
    }
  });

  it('Given a block marked not run, then the marker says why', () => {
    for (const page of docFiles()) {
      for (const marker of notRunMarkers(readDoc(page))) expect(marker, page).to.match(NOT_RUN);
    }
  });

  /**
   * Each page's run, started together once the gateway is up; a page that moves the sandbox clock
   * runs after the others, whose payments would otherwise age under them.
   */
  const runs = new Map<string, Promise<{ status: number | null; stdout: string; stderr: string }>>();
  before(() => {
    const scripts = pages.map((page) => ({ page, script: asRunHere(pageScript(page, readDoc(page)).script, baseUrl) }));
    const movesClock = (script: string) => /\bclock (?:advance|reset)\b|\/admin\/clock\//.test(script);
    const first = scripts.filter(({ script }) => !movesClock(script)).map(({ page, script }) => {
      const run = runScript(script, dataDir);
      runs.set(page, run);
      return run;
    });
    let previous: Promise<unknown> = Promise.all(first);
    for (const { page, script } of scripts.filter(({ script }) => movesClock(script))) {
      const run = previous.then(() => runScript(script, dataDir));
      runs.set(page, run);
      previous = run;
    }
  });

  for (const page of pages) {
    it(`When the examples of ${page} run in order, then each documented answer is given and nothing is refused`, async () => {
      const { expectations } = pageScript(page, readDoc(page));
      const run = await runs.get(page)!;
      const output = `${run.stdout}\n--- stderr\n${run.stderr}`;
      expect(run.status, `${page}: the script stopped (exit ${run.status})\n${output}`).to.equal(0);
      const answers = answersOf(run.stdout);
      const problems: string[] = [];
      const documentedRefusals = new Set<unknown>();
      for (const { id, where, text } of expectations) {
        const pattern = parseDocumented(text.split(DOCUMENTED_BASE).join(baseUrl));
        const [first] = jsonAnswers(answers.get(id) ?? []);
        if (!first) {
          problems.push(`${where}: no answer`);
          continue;
        }
        if ((pattern as { result?: unknown }).result === 'ERROR') documentedRefusals.add(JSON.stringify(first));
        problems.push(...mismatches(pattern, first).map((m) => `${where}: ${m} in ${JSON.stringify(first)}`));
      }
      for (const answer of jsonAnswers(run.stdout.split('\n'))) {
        if (answer.result === 'ERROR' && !documentedRefusals.has(JSON.stringify(answer))) problems.push(`${page}: refused, and the page does not say so: ${JSON.stringify(answer)}`);
      }
      expect(problems, `${problems.join('\n')}\n\n${output}`).to.deep.equal([]);
    });
  }

  describe('the checker itself', () => {
    const page = [
      'Intro',
      '```sh',
      'echo \'{"result":"SUCCESS","status":"SETTLED","trans_id":"8707eca0-92ef-47a5-baa3-a1d691f4e754"}\'   # {"result":"SUCCESS",...}',
      'echo \'{"a":1}\'',
      '# {"a":2}',
      '```',
      'It answers:',
      '```json',
      '{"a":2}',
      '```',
      '<!-- example: not run, starts a server -->',
      '```sh',
      'npm start',
      '```',
    ].join('\n');

    it('Given a page, then its run blocks become one script with a marker after each documented answer, and marked blocks are left out', () => {
      const { script, expectations } = pageScript('docs/x.md', page);
      expect(expectations.map((e) => [e.where, e.text])).to.deep.equal([
        ['docs/x.md:3', '{"result":"SUCCESS",...}'],
        ['docs/x.md:5', '{"a":2}'],
        ['docs/x.md:9', '{"a":2}'],
      ]);
      expect(script).not.to.include('npm start');
      const run = spawnSync('bash', ['-eo', 'pipefail', '-s'], { input: script, encoding: 'utf8' });
      const answers = answersOf(run.stdout);
      expect(jsonAnswers(answers.get(0)!)).to.deep.equal([{ result: 'SUCCESS', status: 'SETTLED', trans_id: '8707eca0-92ef-47a5-baa3-a1d691f4e754' }]);
      expect(jsonAnswers(answers.get(1)!)).to.deep.equal([{ a: 1 }]);
      expect(mismatches(parseDocumented('{"a":2}'), { a: 1 })).to.deep.equal(['$.a: expected 2, got 1']);
    });

    it('Given documented answers with ..., <placeholders>, ids and times, then they match what they stand for and nothing else', () => {
      const documented = parseDocumented(
        '{"result":"REDIRECT",...,"redirect_url":"http://h/sandbox/provider/<trans_id>?return=...","redirect_params":[],"trans_id":"8707eca0-92ef-47a5-baa3-a1d691f4e754","trans_date":"2026-11-24 02:55:08","order_id":"payout-…"}',
      );
      const answer = {
        result: 'REDIRECT',
        status: 'REDIRECT',
        redirect_url: 'http://h/sandbox/provider/abc?return=x',
        redirect_params: [],
        trans_id: '01a22194-3397-70ba-a483-1f13f3823308',
        trans_date: '2026-11-28 09:54:50',
        order_id: 'payout-1795859687616775701',
      };
      expect(mismatches(documented, answer)).to.deep.equal([]);
      expect(mismatches(documented, { ...answer, result: 'SUCCESS', redirect_url: 'http://h/elsewhere', trans_id: 'x', redirect_params: [1] })).to.deep.equal([
        '$.result: expected "REDIRECT", got "SUCCESS"',
        '$.redirect_url: expected "http://h/sandbox/provider/<trans_id>?return=...", got "http://h/elsewhere"',
        '$.redirect_params: expected 0 items, got 1',
        '$.trans_id: expected "8707eca0-92ef-47a5-baa3-a1d691f4e754", got "x"',
      ]);
      expect(mismatches(parseDocumented('{"a":1}'), { a: 1, b: 2 })).to.deep.equal(['$.b: not documented']);
      expect(mismatches(parseDocumented('{"a":1,"b":{"c":"x..."}}'), { a: 1 })).to.deep.equal(['$.b: missing']);
    });
  });
});
