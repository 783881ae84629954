/**
 * A small closed-loop HTTP load generator on undici, for benchmarks against a local server, and
 * helpers to run the server pinned to its own core (the load generator takes the other one).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { report, type Target } from './_report.ts';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The value below which a share `q` of `sorted` lies (0 for none): p50 is quantile(sorted, 0.5). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

/**
 * Sends `paths` round-robin over `connections` keep-alive connections for `seconds`: GETs, or
 * PATCHes with `patch(n)` as the JSON body of the n-th request when it is given.
 */
export async function load(
  url: string,
  paths: string[],
  options: { token: string; seconds: number; connections: number; patch?: (n: number) => unknown },
): Promise<LoadResult> {
  const pool = new Pool(url, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const n = next++;
      const path = paths[n % paths.length]!;
      const started = performance.now();
      const authorization = `Bearer ${options.token}`;
      const response = await pool.request(
        options.patch
          ? {
              method: 'PATCH',
              path,
              headers: { authorization, 'content-type': 'application/json' },
              body: JSON.stringify(options.patch(n)),
            }
          : { method: 'GET', path, headers: { authorization } },
      );
      await response.body.text();
      if (response.statusCode !== 200) errors++;
      latencies.push(performance.now() - started);
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsed = (performance.now() - began) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / elapsed),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

/** Reports a load run: its p50 when one connection measures latency, else its throughput. */
export function reportLoad(label: string, r: LoadResult, measure: 'latency' | 'throughput', target?: Target): void {
  const detail = `${r.perSecond} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms${r.errors ? `, ERRORS ${r.errors}` : ''}`;
  if (r.errors > 0) console.error(`${label}: ${r.errors} requests failed`);
  if (measure === 'latency') report(`${label} p50`, r.p50, 'ms', detail, target);
  else report(label, r.perSecond, 'req/s', detail, target);
}

/** CPU seconds (user + system, every thread) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  // fields after the command name: state is the 3rd, utime and stime the 14th and 15th
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const hasTaskset = spawnSync('taskset', ['--version']).status === 0;

/** Pins this process to core 1 (the server gets core 0) when taskset exists. */
export function pinSelf(): void {
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
}

/** Starts `lectern serve` on `dbFile`, pinned to core 0, and resolves with its URL. */
export async function startBenchServer(
  dbFile: string,
  extraArgs: string[] = [],
  /** the cores the server may use, as taskset takes them: its worker threads share them */
  cores = '0',
): Promise<{ url: string; child: ChildProcess }> {
  // LECTERN_BENCH_SERVER_BIN: a copy of the build, so that a long run is not affected by a rebuild
  const bin = process.env.LECTERN_BENCH_SERVER_BIN ?? new URL('../../dist/lectern.cjs', import.meta.url).pathname;
  // the default log level: a line per request is part of the cost measured
  // flags for the server's node (a CPU profile: "--cpu-prof --cpu-prof-dir=DIR"), which NODE_OPTIONS refuses
  const nodeArgs = process.env.LECTERN_BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return startPinned([...nodeArgs, bin, 'serve', '--db', dbFile, '--port', '0', '--rate-limit', '1000000000', ...extraArgs], cores);
}

/** Starts the bare node:http + better-sqlite3 server (`_bare-server.ts`) on a SQLite file, pinned to core 0. */
export async function startBareServer(dbFile: string): Promise<{ url: string; child: ChildProcess }> {
  return startPinned(['--import', 'tsx', new URL('./_bare-server.ts', import.meta.url).pathname, dbFile]);
}

/** Runs node with `args` on core 0 and resolves with the first local URL it prints. */
async function startPinned(args: string[], cores = '0'): Promise<{ url: string; child: ChildProcess }> {
  // taskset execs node, so the child's pid is the server's own (cpuSeconds reads it)
  const child = hasTaskset ? spawn('taskset', ['-c', cores, process.execPath, ...args]) : spawn(process.execPath, args);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    let found = false;
    // the log is read (a full pipe would stall the server) but kept only until the address shows
    const onData = (chunk: Buffer) => {
      if (found) return;
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) {
        found = true;
        resolve(match[0]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
  return { url, child };
}

/**
 * Stops a bench server and waits for it to exit (its database may be dropped next), reporting
 * the most memory it held over the whole run (its peak resident set, from /proc).
 */
export async function stopBenchServer(child: ChildProcess, options: { quiet?: boolean } = {}): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
  if (peak && !options.quiet) report('server peak RSS', Math.round(Number(peak) / 1024), 'MB', '', { reported: true });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
