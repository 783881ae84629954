/**
 * Exports at scale, on the assignments benchmark's data set (1 000 000 assignments): the whole list
 * as CSV and as NDJSON over HTTP, read at full speed, in rows a second; the server's resident
 * memory above what it held before, while a reader takes it at full speed and while one stops
 * reading for ten seconds in the middle (the server must wait for it, not buffer the table).
 */
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { ASSIGNMENTS, seedAssignments } from './_assignments-data.ts';
import { seededDatabase } from './_database.ts';
import { cpuSeconds, pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const STALL_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 10);
const onPostgres = Boolean(process.env.LECTERN_BENCH_POSTGRES);

const { database, meta } = await seededDatabase(
  'assignments',
  new URL('./_assignments-data.ts', import.meta.url).pathname,
  { assignments: ASSIGNMENTS },
  seedAssignments,
);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts an export and resolves with the response, unread. */
const open = (url: string) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${meta.token}` } }, resolve);
    req.on('error', reject);
    req.end();
  });

/** Reads `response` to its end, counting lines; `peak` follows the server's memory meanwhile. */
async function readAll(response: IncomingMessage, pid: number, peak: { mb: number }): Promise<number> {
  const sampler = setInterval(() => (peak.mb = Math.max(peak.mb, rssMb(pid))), 50);
  let lines = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  return lines;
}

pinSelf();
const server = await startBenchServer(database.target);
const pid = server.child.pid!;
const target = onPostgres ? 50_000 : 100_000;
try {
  // a first export of a few rows loads the code paths before the baseline is read
  await readAll(await open(`${server.url}/api/v2/assignments/?format=csv&user=${meta.probe.user}`), pid, { mb: 0 });
  for (const format of ['csv', 'ndjson'] as const) {
    const baseline = rssMb(pid);
    const peak = { mb: baseline };
    const started = performance.now();
    const cpuBefore = cpuSeconds(pid);
    const response = await open(`${server.url}/api/v2/assignments/?format=${format}`);
    const lines = await readAll(response, pid, peak);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(pid) - cpuBefore;
    const rows = format === 'csv' ? lines - 1 : lines;
    if (rows !== ASSIGNMENTS) console.log(`(the ${format} export held ${rows} rows, not ${ASSIGNMENTS})`);
    report(
      `export ${format.toUpperCase()}, ${ASSIGNMENTS / 1e6} M assignments`,
      Math.round(rows / seconds),
      'rows/s',
      `${seconds.toFixed(1)} s`,
      {
        atLeast: target,
      },
    );
    // what the server's own work allows on a core of its own, whatever else the machine runs
    report(`export ${format.toUpperCase()}: rows per server CPU second`, Math.round(rows / cpu), 'rows/s', `${cpu.toFixed(1)} s of CPU`);
    report(
      `export ${format.toUpperCase()}: server RSS growth, reading at full speed`,
      peak.mb - baseline,
      'MB',
      `from ${baseline.toFixed(0)} MB`,
      {
        below: 100,
      },
    );
  }

  // a reader that takes the first megabyte, stops for STALL_SECONDS, then reads the rest
  const baseline = rssMb(pid);
  const peak = { mb: baseline };
  const response = await open(`${server.url}/api/v2/assignments/?format=csv`);
  await new Promise<void>((resolve) => {
    let received = 0;
    response.on('data', function first(chunk: Buffer) {
      received += chunk.length;
      if (received > 1_000_000) {
        response.off('data', first);
        response.pause();
        resolve();
      }
    });
  });
  const stallEnds = performance.now() + STALL_SECONDS * 1000;
  while (performance.now() < stallEnds) {
    peak.mb = Math.max(peak.mb, rssMb(pid));
    await sleep(100);
  }
  report(`export CSV: server RSS growth, reader stalled ${STALL_SECONDS} s`, peak.mb - baseline, 'MB', `from ${baseline.toFixed(0)} MB`, {
    below: 100,
  });
  response.resume();
  const lines = await readAll(response, pid, peak);
  report('export CSV: server RSS growth, stalled then read to the end', peak.mb - baseline, 'MB', `${lines} lines after the stall`);
} finally {
  await stopBenchServer(server.child);
  await database.dispose();
}
