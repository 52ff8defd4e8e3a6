/**
 * The gateway image's recipe, checked without a Docker engine: what goes into the build context,
 * production dependencies only in the final image, a user other than root, a health check, and a
 * start command that works from what the final image holds (TypeScript through tsx, or built JS).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { startTestGateway } from '../support/gateway-harness';
import { copyOf, isIgnored, parseDockerfile, parseDockerignore, wordsOf, type Stage } from './docker-recipe';
import { packageJson, productionBins, readRepoFile, repoHas, ROOT } from './repo';

/** Files at the top of the repository matching a simple `*` wildcard (`tsconfig*.json`). */
function rootFilesMatching(glob: string): string[] {
  const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return readdirSync(ROOT).filter((name) => re.test(name));
}

/** What must never reach the build context: other machines' modules, local data, the vault key, history. */
const NEVER_IN_CONTEXT = ['node_modules', 'data', 'vault.key', '.git', 'test-artifacts'];

describe('Dockerfile and .dockerignore', () => {
  let stages: Stage[];
  let final: Stage;
  let ignore: string[];
  before(() => {
    stages = parseDockerfile(readRepoFile('Dockerfile'));
    final = stages[stages.length - 1];
    ignore = repoHas('.dockerignore') ? parseDockerignore(readRepoFile('.dockerignore')) : [];
  });
  const stageNamed = (name: string): Stage => {
    const stage = stages.find((s) => s.name === name);
    if (!stage) throw new Error(`no build stage named ${name}`);
    return stage;
  };
  const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

  describe('.dockerignore', () => {
    it('keeps node_modules, the data directory, any vault.key, .git and test artifacts out of the build context', () => {
      for (const path of [
        'node_modules',
        'node_modules/koa/package.json',
        'data',
        'data/events.db',
        'data/vault.key',
        'vault.key',
        'somewhere/else/vault.key',
        '.git',
        '.git/config',
        'test-artifacts',
        'test-artifacts/report.txt',
      ]) {
        expect(isIgnored(path, ignore), path).to.equal(true);
      }
    });

    it('lets in everything the Dockerfile copies from the context', () => {
      for (const stage of stages) {
        for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD').map(copyOf)) {
          if (copy.from) continue;
          for (const source of copy.sources) {
            // A wildcard must match at least one file that reaches the context, or the build fails.
            const matches = source.includes('*') ? rootFilesMatching(source) : [source];
            expect(matches, `${source} matches a file`).not.to.be.empty;
            for (const path of matches) {
              expect(repoHas(path), `${path} exists`).to.equal(true);
              expect(isIgnored(path, ignore), `${path} is not ignored`).to.equal(false);
            }
          }
        }
      }
    });
  });

  describe('Dockerfile', () => {
    it('copies from the context only named paths, none of them something that must stay out', () => {
      for (const stage of stages) {
        for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD').map(copyOf)) {
          if (copy.from) continue;
          for (const source of copy.sources) {
            const path = source.replace(/^\.\//, '').replace(/\/+$/, '');
            // `.` would take in the whole context: what gets in then depends on .dockerignore alone.
            expect(path, 'a whole-context copy').not.to.be.oneOf(['.', '', '*']);
            for (const excluded of NEVER_IN_CONTEXT) {
              expect(path === excluded || path.startsWith(`${excluded}/`) || path.endsWith(`/${excluded}`), `${source} copies ${excluded}`).to.equal(false);
            }
          }
        }
      }
    });

    it('runs the final image as a user other than root', () => {
      const users = final.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args.split(':')[0].trim());
      expect(users, 'USER in the final stage').not.to.be.empty;
      expect(users[users.length - 1]).not.to.be.oneOf(['root', '0']);
    });

    it('checks health with GET /health on the port the gateway listens on', () => {
      const checks = final.instructions.filter((i) => i.keyword === 'HEALTHCHECK');
      expect(checks).to.have.length(1);
      expect(checks[0].args).not.to.match(/^NONE\b/i);
      expect(checks[0].args).to.match(/\bCMD\b/);
      expect(checks[0].args).to.include('/health');
      expect(checks[0].args).to.include('process.env.PORT');
      // The slim base image has no curl or wget: the check must use what the image has.
      expect(checks[0].args).to.match(/CMD\s+\[\s*"node"/);
    });

    it('its health check command passes against a running gateway and fails where none listens', async () => {
      const args = final.instructions.find((i) => i.keyword === 'HEALTHCHECK')!.args;
      const words: string[] = JSON.parse(args.slice(args.indexOf('CMD') + 3).trim());
      expect(words.slice(0, 2)).to.deep.equal(['node', '-e']);
      const exitCode = (port: number) =>
        new Promise<number>((resolve) => {
          execFile(process.execPath, words.slice(1), { env: { ...process.env, PORT: String(port) }, timeout: 10_000 }, (error) =>
            resolve(error ? Number((error as { code?: unknown }).code ?? 1) : 0),
          );
        });
      const gateway = await startTestGateway({ kind: 'sqlite' });
      try {
        expect(await exitCode(Number(new URL(gateway.baseUrl).port)), 'a healthy gateway').to.equal(0);
      } finally {
        await gateway.stop();
      }
      const free = createServer();
      await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
      const port = (free.address() as { port: number }).port;
      await new Promise((resolve) => free.close(resolve));
      expect(await exitCode(port), 'nothing listening').to.equal(1);
    });

    it('gives the final image production dependencies only', () => {
      for (const run of runs(final)) expect(run, 'the final stage installs nothing itself').not.to.match(/npm (ci|install|i)\b/);
      const modules = final.instructions.filter((i) => i.keyword === 'COPY').map(copyOf).filter((c) => c.sources.some((s) => s.includes('node_modules')));
      expect(modules, 'node_modules copied into the final stage').to.have.length(1);
      const from = modules[0].from;
      expect(from, 'node_modules come from a build stage').to.be.a('string');
      const installs = runs(stageNamed(from!)).filter((r) => /npm (ci|install)\b/.test(r));
      expect(installs, `npm ci in stage ${from}`).to.have.length(1);
      expect(installs[0]).to.match(/--omit=dev\b/);
    });

    it('starts with npm scripts that work from what the final image holds, built or not', () => {
      const cmd = final.instructions.filter((i) => i.keyword === 'CMD').pop();
      expect(cmd, 'CMD').to.exist;
      const words = wordsOf(cmd!.args);
      const { scripts } = packageJson();
      // What `npm start` runs, under an init that passes signals on (docker stop stops the gateway cleanly).
      expect(words).to.deep.equal(scripts.start.split(/\s+/));
      const entrypoint = final.instructions.filter((i) => i.keyword === 'ENTRYPOINT').pop();
      expect(wordsOf(entrypoint?.args ?? '')).to.deep.equal(['/usr/bin/tini', '--']);
      expect(runs(final).join('\n')).to.match(/apt-get install .*\btini\b/);

      const bins = productionBins();
      const copied = final.instructions.filter((i) => i.keyword === 'COPY').map(copyOf);
      const inImage = (path: string) =>
        copied.some((c) => [c.destination, ...c.sources].some((p) => path === p.replace(/^\.\//, '').replace(/\/+$/, '') || path.startsWith(`${p.replace(/^\.\//, '').replace(/\/+$/, '')}/`)));
      // The compose services run `gateway` and the image runs `start`.
      for (const name of ['start', 'gateway']) {
        const script = scripts[name];
        expect(script, `npm script ${name}`).to.be.a('string');
        const [program, ...rest] = script.split(/\s+/);
        const entry = rest.find((word) => !word.startsWith('-'))!;
        if (program === 'node') {
          expect(inImage(entry), `${entry} of "${name}" is in the final image`).to.equal(true);
          if (entry.startsWith('dist/')) {
            const dist = copied.find((c) => c.sources.some((s) => s.replace(/\/+$/, '') === '/app/dist' || s.replace(/\/+$/, '') === 'dist'));
            expect(dist?.from, 'dist/ comes from a build stage').to.be.a('string');
            expect(runs(stageNamed(dist!.from!)).join('\n')).to.match(/npm run build\b/);
          }
        } else {
          expect(bins.has(program), `"${program}" of the "${name}" script is a production dependency's command`).to.equal(true);
          expect(inImage(entry), `${entry} of "${name}" is in the final image`).to.equal(true);
        }
      }
    });

    it('builds dist/ when the project has a build step, and does not fail when it has none', () => {
      const builds = stages.flatMap(runs).filter((r) => /npm run build\b/.test(r));
      expect(builds).to.have.length(1);
      expect(builds[0]).to.match(/npm run build --if-present/);
    });
  });
});
