/**
 * An export read by a client that stops reading for a while: the server must wait for it rather
 * than read the rest of the table into memory. Measured on the server process's resident memory
 * with a generous bound; the tight figures belong to the benchmark (npm run bench -- export).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { insertLocations } from '../helpers/many-locations.ts';
import { useServer } from '../helpers/server.ts';

const ROWS = 200_000;
/** each row's name: long enough that the whole export (about 55 MB) would show if it were held */
const PADDING = 'x'.repeat(240);
/**
 * How far above the most memory a full-speed read took the server may go while its client stalls.
 * Measured from the full-speed read's peak, not from the moment the stall begins: a collection
 * just before that moment shrinks the heap by up to 35 MB, which then grows back to its working
 * size whatever the reader does. Holding the rest of the export would take 55 MB more; the bound
 * leaves room for the background thread's own work meanwhile (a CI run measured 13.2 MB once).
 */
const STALL_BOUND_MB = 25;
/**
 * What a whole export read at full speed may grow the server by (its young generation and caches):
 * a bound against runaway growth only. Measured alone: Node 20 113–127 MB, Node 24 151–155 MB; with
 * another file running beside it Node 24 reached 163.7 and 230.8 MB. Holding the export is what
 * the stall bound above catches.
 */
const READ_BOUND_MB = 400;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('an export read slowly', () => {
  // one process, whose memory is the one measured
  const server = useServer({ instances: 1 });

  const open = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v2/locations/?format=csv`,
        { headers: { authorization: `Bearer ${server.adminToken}` } },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });

  /** Reads the rest of `response`, sampling the server's memory into `peak`. */
  const readRest = async (response: IncomingMessage, pid: number, peak: { mb: number }, received = '') => {
    const sampler = setInterval(() => (peak.mb = Math.max(peak.mb, rssMb(pid))), 50);
    response.setEncoding('utf8');
    for await (const chunk of response) received += chunk as string;
    clearInterval(sampler);
    const lines = received.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, ROWS + 1, 'the header and every row');
    assert.match(lines[ROWS]!, new RegExp(`^${ROWS},Location ${ROWS}`));
    return received.length;
  };

  it('keeps the server within a bounded memory while its client stops reading', async () => {
    await insertLocations(server.dbFile, ROWS, PADDING);
    const pid = server.process.pid!;

    // read once at full speed: the server grows its heap and caches to what such a read needs
    const before = rssMb(pid);
    const read = { mb: before };
    const size = await readRest(await open(), pid, read);
    const readGrowth = read.mb - before;
    assert.ok(readGrowth < READ_BOUND_MB, `a full-speed export grew the server by ${readGrowth.toFixed(1)} MB (bound ${READ_BOUND_MB} MB)`);

    // then read the first megabyte, stop reading for three seconds, and read the rest
    const baseline = rssMb(pid);
    const stalled = { mb: baseline };
    const response = await open();
    assert.equal(response.statusCode, 200);
    let received = '';
    response.setEncoding('utf8');
    await new Promise<void>((resolve) => {
      response.on('data', function first(chunk: string) {
        received += chunk;
        if (received.length > 1_000_000) {
          response.off('data', first);
          response.pause();
          resolve();
        }
      });
    });
    for (let i = 0; i < 30; i++) {
      await pause();
      stalled.mb = Math.max(stalled.mb, rssMb(pid));
    }
    const stallGrowth = stalled.mb - Math.max(read.mb, baseline);
    if (process.env.DEBUG_EXPORT) console.log({ before, read: read.mb, baseline, stalled: stalled.mb });
    assert.ok(
      stallGrowth < STALL_BOUND_MB,
      `while its client stalled on a ${Math.round(size / 1e6)} MB export the server reached ${stalled.mb.toFixed(1)} MB, ` +
        `${stallGrowth.toFixed(1)} MB above a full-speed read's ${read.mb.toFixed(1)} MB (bound ${STALL_BOUND_MB} MB)`,
    );
    assert.equal(await readRest(response, pid, stalled, received), size);
  });
});
