/**
 * A request is answered while an export streams, not after it: on SQLite the export's batches are
 * read on a read thread, so the thread serving requests only encodes and writes them and turns to
 * other requests between batches (docs/scaling.md, "Where the work runs"). On PostgreSQL the
 * driver is asynchronous and the batches come from a cursor.
 *
 * The test asserts an order, never a duration: the client reads the export as fast as it can and,
 * from its first bytes on, reads a user by id again and again; reads must complete before the
 * export's last byte. A server that reads the batches on its request thread, for a reader as fast
 * as the socket, runs the whole export without turning to the waiting read.
 */
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { queryDatabase } from '../helpers/database.ts';
import { insertLocations } from '../helpers/many-locations.ts';
import { useServer } from '../helpers/server.ts';

const ROWS = 60_000;
/** reads answered mid-export that prove it: a server that never turned answers at most the first */
const ANSWERED = 5;
const ATTEMPTS = 5;

describe('requests during an export', () => {
  const server = useServer({ instances: 1 });

  const open = (path: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.adminToken}` } }, resolve);
      req.on('error', reject);
      req.end();
    });

  /** Reads an export to its end, counting its lines; `onFirst` runs at its first bytes. */
  const readAll = async (response: IncomingMessage, onFirst = () => undefined as unknown) => {
    let lines = 0;
    let first = true;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (first) onFirst();
      first = false;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    }
    return lines;
  };

  it('a GET by id completes before an export read at full speed ends', async () => {
    await insertLocations(server.dbFile, ROWS);
    const me = await server.api.get('/api/v2/me/');
    assert.equal(me.status, 200, me.text);
    const userPath = `/api/v2/users/${me.body.user.public_id}/`;

    // SQLite's read threads start with the first export, whose batches are read here until they
    // are up (they load the whole program): the export is tried again until one shows it, or at
    // most ATTEMPTS times; a server that reads on its request thread never answers mid-export
    let answered = 0;
    for (let attempt = 0; attempt < ATTEMPTS && answered < ANSWERED; attempt++) {
      const response = await open('/api/v2/locations/?format=csv');
      assert.equal(response.statusCode, 200);
      let ended = false;
      let reading: Promise<void> | undefined;
      answered = 0;
      const readsWhileExporting = async () => {
        while (!ended) {
          const read = await server.api.get(userPath);
          assert.equal(read.status, 200, read.text);
          if (!ended) answered++;
        }
      };
      const lines = await readAll(response, () => void (reading = readsWhileExporting()));
      ended = true;
      await reading;
      assert.equal(lines, ROWS + 1, 'the header and every row');
    }
    assert.ok(answered >= ANSWERED, `${answered} reads answered while the export streamed (at least ${ANSWERED} expected)`);
  });

  it('lets go of what an export holds when its client goes away mid-export', async () => {
    const postgres = /^postgres/.test(server.dbFile);
    // PostgreSQL: the connections of export cursors, idle in their transaction between two batches
    const cursors = async () =>
      postgres
        ? Number(
            (
              await queryDatabase<{ n: string }>(
                server.dbFile,
                `select count(*) as n from pg_stat_activity where datname = current_database() and query like 'fetch forward %'`,
                [],
              )
            )[0]!.n,
          )
        : 0;
    const until = async (holds: (n: number) => boolean, what: string) => {
      for (let tries = 0; tries < 100; tries++) {
        if (holds(await cursors())) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.fail(what);
    };
    const response = await open('/api/v2/locations/?format=csv');
    assert.equal(response.statusCode, 200);
    // read a little, then stop reading: the export waits for the client, holding its cursor
    await new Promise<void>((resolve) => response.once('data', () => resolve()));
    response.pause();
    if (postgres) await until((n) => n >= 1, 'the export read its later batches through a cursor');
    response.destroy();
    await until((n) => n === 0, 'the cursor was let go once the client went away');
    // and the next export is whole
    assert.equal(await readAll(await open('/api/v2/locations/?format=csv')), ROWS + 1);
  });
});
