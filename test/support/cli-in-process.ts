/**
 * The CLI's `run` in this process, its output captured: for tables of cases that would take a
 * process start each (the process itself is covered by the tests that use cli-runner.ts).
 */
import { run } from '../../src/cli/index';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run gateway -- <argv>` in this process with `env` set for its duration. */
export async function runCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<InProcessResult> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const out: string[] = [];
  const err: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => (out.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await run(argv);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
