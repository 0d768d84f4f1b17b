import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** One layer's share of the CPU samples taken while the work ran. */
export interface OwnerShare {
  /** `lib/<folder>`, a package (`@anthropic-ai/sdk`), or a bucket of V8's own (garbage collector, program, unowned). */
  owner: string;
  /** Milliseconds a run. */
  msPerRun: number;
  /** Share of the busy samples (idle left out). */
  share: number;
}

export interface CpuOwners {
  runs: number;
  /** Busy milliseconds a run in the profile (the profiler's own cost included, so above the plain figure). */
  busyMsPerRun: number;
  owners: OwnerShare[];
}

/** Samples with none of the bundle's frames on their stack: web stream pulls, timers, promise jobs started by Node. */
export const UNOWNED = '(no frame of ours: stream, timer and promise jobs)';

/**
 * Where a bundled process's CPU goes, by layer: profiles `work` with V8's sampling profiler
 * and charges each sample to the nearest frame on its stack that is in the bundle, named by
 * the source file esbuild marked above it (`// lib/engine/run-loop.ts`), so Node's and V8's
 * own frames count for the code that called them. Samples with no frame of the bundle on the
 * stack (callbacks Node started) go to UNOWNED; GC and V8's own work to their own buckets.
 */
export async function profileOwners(options: {
  bundle: string;
  runs: number;
  work: () => Promise<void>;
}): Promise<CpuOwners> {
  const fileAt = bundleFiles(readFileSync(options.bundle, 'utf8'));
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await options.work();
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();

  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  profile.samples?.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0)));

  const bundleUrl = `file://${options.bundle}`;
  const byOwner = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const name = nodes.get(id)!.callFrame.functionName;
    if (name === '(idle)') continue;
    let owner = name === '(garbage collector)' || name === '(program)' ? name : UNOWNED;
    let file: string | undefined;
    for (let at: number | undefined = id; file === undefined && at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at)!.callFrame;
      if (frame.url === bundleUrl) file = fileAt(frame.lineNumber + 1);
    }
    // The profiler's own start and stop (this file's calls into the inspector) are not the work's.
    if (file === SELF) continue;
    if (owner === UNOWNED && file !== undefined) owner = layerOf(file);
    busy += us;
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  }
  const owners = [...byOwner]
    .map(([owner, us]) => ({ owner, msPerRun: us / 1000 / options.runs, share: us / busy }))
    .sort((a, b) => b.share - a.share);
  return { runs: options.runs, busyMsPerRun: busy / 1000 / options.runs, owners };
}

const SELF = 'lib/bench/cpu-owners.ts';

/** Several profiles of the same work (taken in turns with other work, so load moves all alike) as one. */
export function mergeOwners(parts: readonly CpuOwners[]): CpuOwners {
  const runs = parts.reduce((n, p) => n + p.runs, 0);
  const ms = new Map<string, number>();
  for (const part of parts)
    for (const o of part.owners) ms.set(o.owner, (ms.get(o.owner) ?? 0) + o.msPerRun * part.runs);
  const busy = [...ms.values()].reduce((a, b) => a + b, 0);
  const owners = [...ms]
    .map(([owner, total]) => ({ owner, msPerRun: total / runs, share: total / busy }))
    .sort((a, b) => b.share - a.share);
  return { runs, busyMsPerRun: busy / runs, owners };
}

/** Line (1-based) → the source file esbuild's `// path` comment names above it. */
function bundleFiles(text: string): (line: number) => string {
  const marks: { line: number; file: string }[] = [];
  text.split('\n').forEach((line, i) => {
    const match = /^\/\/ ((?:lib|node_modules|app)\/\S+)$/.exec(line);
    if (match) marks.push({ line: i + 1, file: match[1]! });
  });
  return (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let file = '(bundle prelude)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid]!.line <= line) {
        file = marks[mid]!.file;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return file;
  };
}

/** `lib/engine/context/<file>.ts` → `lib/engine`; `node_modules/@anthropic-ai/sdk/...` → `@anthropic-ai/sdk`. */
function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'node_modules') return parts.slice(0, 2).join('/');
  return parts[1]!.startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1]!;
}

/** The layers that are the vendor's and the SDK's work (what a sweep's ceiling runs), as opposed to the engine side. */
export const VENDOR_AND_SDK = new Set([
  'lib/sim',
  '@anthropic-ai/sdk',
  'openai',
  'gpt-tokenizer',
  '@opentelemetry/api',
]);
