import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { expectError, repoRoot, startServer, uniqueEmail } from '../helpers/server.ts';

describe('shutdown and contention', () => {
  it('finishes a request in flight when told to stop, then exits 0', async () => {
    const server = await startServer();
    const body = JSON.stringify({ email: uniqueEmail('inflight'), name: 'In flight' });
    const url = new URL('/api/v2/users/', server.url);
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.adminToken}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    const responded = once(req, 'response');
    // half the body now, SIGTERM, then the rest: the server must still answer this request
    req.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const exited = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.end(body.slice(10));
    const [response] = (await responded) as [IncomingMessage];
    let text = '';
    for await (const chunk of response) text += chunk;
    assert.equal(response.statusCode, 201, text);
    assert.equal(JSON.parse(text).name, 'In flight');
    assert.equal(await exited, 0);
  });

  it('answers 503 service_unavailable with Retry-After when another process holds the database too long', async () => {
    const server = await startServer();
    try {
      // SQLite: a writer holding the file; PostgreSQL: a transaction holding the table the request writes
      const hold = /^postgres/.test(server.dbFile)
        ? `const c = new (require('pg').Client)(${JSON.stringify(server.dbFile)}); c.connect().then(() => c.query('begin; lock table groups in access exclusive mode')).then(() => process.stdout.write('locked\\n'));`
        : `const db = new (require('better-sqlite3'))(${JSON.stringify(server.dbFile)}); db.exec('begin exclusive'); process.stdout.write('locked\\n');`;
      const holder = spawn(process.execPath, ['-e', `${hold} setTimeout(() => process.exit(0), 7000);`], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await once(holder.stdout!, 'data');
      const response = await server.api.post('/api/v2/groups/', { name: 'Blocked' });
      expectError(response, 503, 'service_unavailable');
      assert.equal(response.headers.get('retry-after'), '1');
      await once(holder, 'exit');
      assert.equal((await server.api.post('/api/v2/groups/', { name: 'After' })).status, 201);
    } finally {
      await server.stop();
    }
  });
});
