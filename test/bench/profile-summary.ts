/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): top functions by self time and by total
 * (inclusive) time, and self time per file / package. Positions of TypeScript modules are mapped
 * back to the .ts source with the `sourcemaps-<pid>.json` that `profile-hook.cjs` saves beside it.
 *
 * Optionally only a time window of the profile is summarised (e.g. the measured run, without start-up
 * and warm-up), given as milliseconds before the profile's end.
 *
 *   tsx test/bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import fs from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Hotspot {
  name: string;
  location: string;
  group: string;
  selfMs: number;
  selfPct: number;
  totalMs: number;
  totalPct: number;
}

export interface ProfileWindow {
  /** Start of the window, in ms before the end of the profile. */
  fromEndMs: number;
  /** End of the window, in ms before the end of the profile. */
  toEndMs: number;
}

export interface ProfileSummary {
  file: string;
  window: ProfileWindow | null;
  sampledMs: number;
  idleMs: number;
  busyMs: number;
  topSelf: Hotspot[];
  topTotal: Hotspot[];
  byGroup: Array<{ group: string; selfMs: number; selfPct: number }>;
  /** Every sample charged to the nearest project function (src/, projections/) on its stack. */
  byProjectCaller: Array<{ name: string; location: string; ms: number; pct: number }>;
}

const repoRoot = path.resolve(__dirname, '..', '..');

function toPath(url: string): string {
  return url.startsWith('file://') ? fileURLToPath(url) : url;
}

function rel(file: string): string {
  const relative = path.relative(repoRoot, file);
  return relative.startsWith('..') ? file : relative;
}

/** Which bucket a frame's self time goes to: a project file, a package, node internals, or V8. */
function groupOf(frame: CallFrame, mappedFile: string | null): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const file = mappedFile ?? toPath(url);
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + 'node_modules/'.length).split('/');
    return `package ${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  return rel(file);
}

function isProjectLocation(location: string): boolean {
  return location.startsWith('src/') || location.startsWith('projections/');
}

export function summariseProfile(profileFile: string, top = 25, window: ProfileWindow | null = null): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8')) as CpuProfile;
  const maps = loadSourceMaps(path.dirname(profileFile));

  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }

  // One key per function (name + mapped location), shared by every node of that function.
  const keyOfNode = new Map<number, string>();
  const info = new Map<string, { name: string; location: string; group: string }>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    let location = frame.url ? `${rel(toPath(frame.url))}:${frame.lineNumber + 1}` : '';
    let mappedFile: string | null = null;
    const map = frame.url ? maps.get(toPath(frame.url)) : undefined;
    if (map) {
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as {
        originalSource?: string;
        originalLine?: number;
      };
      if (entry && entry.originalSource !== undefined && entry.originalLine !== undefined) {
        mappedFile = toPath(entry.originalSource);
        if (!path.isAbsolute(mappedFile)) mappedFile = path.resolve(path.dirname(toPath(frame.url)), mappedFile);
        location = `${rel(mappedFile)}:${entry.originalLine + 1}`;
      }
    }
    const name = frame.functionName || '(anonymous)';
    const key = `${name}@${location}`;
    keyOfNode.set(node.id, key);
    if (!info.has(key)) info.set(key, { name, location, group: groupOf(frame, mappedFile) });
  }

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const projectCaller = new Map<string, number>();
  let sampledUs = 0;
  const from = window ? profile.endTime - window.fromEndMs * 1000 : -Infinity;
  const to = window ? profile.endTime - window.toEndMs * 1000 : Infinity;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const delta = profile.timeDeltas[i + 1] ?? 0; // time until the next sample
    if (delta <= 0 || at < from || at > to) continue;
    sampledUs += delta;
    const leaf = profile.samples[i];
    const leafKey = keyOfNode.get(leaf)!;
    self.set(leafKey, (self.get(leafKey) ?? 0) + delta);
    const seen = new Set<string>();
    let caller: string | null = null;
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const key = keyOfNode.get(id)!;
      if (caller === null && isProjectLocation(info.get(key)!.location)) caller = key;
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + delta);
    }
    if (!leafKey.startsWith('(idle)@')) {
      const bucket = caller ?? `(no project frame: ${info.get(leafKey)!.group})`;
      projectCaller.set(bucket, (projectCaller.get(bucket) ?? 0) + delta);
    }
  }
  const idleUs = [...self].filter(([key]) => key.startsWith('(idle)@')).reduce((sum, [, us]) => sum + us, 0);
  const busyUs = Math.max(1, sampledUs - idleUs);
  const hotspot = (key: string): Hotspot => {
    const meta = info.get(key)!;
    return {
      ...meta,
      selfMs: (self.get(key) ?? 0) / 1000,
      selfPct: (100 * (self.get(key) ?? 0)) / busyUs,
      totalMs: (total.get(key) ?? 0) / 1000,
      totalPct: (100 * (total.get(key) ?? 0)) / busyUs,
    };
  };
  const notIdle = (key: string) => !key.startsWith('(idle)@') && !key.startsWith('(root)@');
  const topSelf = [...self.keys()].filter(notIdle).sort((a, b) => self.get(b)! - self.get(a)!).slice(0, top).map(hotspot);
  // Inclusive time is most telling for code we own or call directly; skip the event-loop plumbing.
  const topTotal = [...total.keys()]
    .filter((key) => notIdle(key) && !info.get(key)!.group.startsWith('node internals') && info.get(key)!.location !== '')
    .sort((a, b) => total.get(b)! - total.get(a)!)
    .slice(0, top)
    .map(hotspot);
  const groups = new Map<string, number>();
  for (const [key, us] of self) {
    if (!notIdle(key)) continue;
    const group = info.get(key)!.group;
    groups.set(group, (groups.get(group) ?? 0) + us);
  }
  const byGroup = [...groups]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([group, us]) => ({ group, selfMs: us / 1000, selfPct: (100 * us) / busyUs }));
  const byProjectCaller = [...projectCaller]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => {
      const meta = info.get(key);
      return { name: meta ? meta.name : key, location: meta ? meta.location : '', ms: us / 1000, pct: (100 * us) / busyUs };
    });
  return {
    file: profileFile,
    window,
    sampledMs: sampledUs / 1000,
    idleMs: idleUs / 1000,
    busyMs: busyUs / 1000,
    topSelf,
    topTotal,
    byGroup,
    byProjectCaller,
  };
}

function loadSourceMaps(dir: string): Map<string, SourceMap> {
  const maps = new Map<string, SourceMap>();
  for (const name of fs.readdirSync(dir)) {
    if (!/^sourcemaps-\d+\.json$/.test(name)) continue;
    const payloads = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Record<string, SourceMapPayload>;
    for (const [file, payload] of Object.entries(payloads)) maps.set(file, new SourceMap(payload));
  }
  return maps;
}

export function formatProfileSummary(summary: ProfileSummary, top = 25): string {
  const ms = (n: number) => n.toFixed(0).padStart(7);
  const pct = (n: number) => `${n.toFixed(1).padStart(5)}%`;
  const lines = [
    `CPU profile ${rel(summary.file)}${
      summary.window ? ` (window: ${summary.window.fromEndMs.toFixed(0)}..${summary.window.toEndMs.toFixed(0)} ms before its end)` : ''
    }`,
    `  sampled ${summary.sampledMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms, busy ${summary.busyMs.toFixed(0)} ms (percentages are of busy time)`,
    '',
    `  Top ${top} functions by self time`,
    `  ${'self ms'.padStart(7)} ${'self'.padStart(6)} ${'total'.padStart(6)}  function  (location)`,
    ...summary.topSelf.slice(0, top).map(
      (h) => `  ${ms(h.selfMs)} ${pct(h.selfPct)} ${pct(h.totalPct)}  ${h.name}  (${h.location || h.group})`,
    ),
    '',
    `  Top ${top} functions by total (inclusive) time`,
    `  ${'total ms'.padStart(8)} ${'total'.padStart(6)}  function  (location)`,
    ...summary.topTotal.slice(0, top).map((h) => `  ${ms(h.totalMs).padStart(8)} ${pct(h.totalPct)}  ${h.name}  (${h.location})`),
    '',
    '  Self time by file / package',
    ...summary.byGroup.map((g) => `  ${ms(g.selfMs)} ${pct(g.selfPct)}  ${g.group}`),
    '',
    '  CPU time charged to the nearest project function on the stack (library time included)',
    ...summary.byProjectCaller.map((c) => `  ${ms(c.ms)} ${pct(c.pct)}  ${c.name}${c.location ? `  (${c.location})` : ''}`),
  ];
  return lines.join('\n');
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx test/bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const top = Number(process.argv[3] || '25');
  console.log(formatProfileSummary(summariseProfile(path.resolve(file), top), top));
}
