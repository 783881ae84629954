/** `lectern users`: managing users from the command line while the server runs, seen through the API. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, runCliJson, uniqueEmail, userWithToken, useServer } from '../helpers/server.ts';

describe('lectern users', () => {
  const server = useServer();
  const cli = (...args: string[]) => runCli(['users', ...args, '--db', server.dbFile]);
  const cliJson = (...args: string[]) => runCliJson(['users', ...args, '--db', server.dbFile]);

  it('creates a user the running server serves at once, and refuses a taken email', async () => {
    const email = uniqueEmail('cli-user');
    const user = await cliJson('create', '--email', email, '--name', 'Grace Hopper', '--role', 'organizer', '--employee-id', 'E-7');
    const served = await server.api.get(`/api/v2/users/${user.public_id}/`);
    assert.equal(served.status, 200);
    assert.equal(served.body.email, email);
    assert.equal(served.body.role, 'organizer');
    assert.equal(served.body.employee_id, 'E-7');

    const taken = await cli('create', '--email', email, '--name', 'Someone else', '--role', 'user');
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /^error: .*email/);
    assert.equal(taken.stderr.trim().split('\n').length, 1);
  });

  it('changes a role, which the user’s token follows from its next request', async () => {
    const organizer = await userWithToken(server, 'organizer');
    assert.equal((await organizer.api.get('/api/v2/users/')).status, 200);
    const changed = await cli('set-role', organizer.user.email, 'user');
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /is now user \(was organizer\)/);
    assert.equal((await server.api.get(`/api/v2/users/${organizer.user.public_id}/`)).body.role, 'user');
    assert.equal((await organizer.api.get('/api/v2/users/')).body.error.code, 'forbidden');

    assert.equal((await cliJson('set-role', organizer.user.email, 'admin')).role, 'admin');
    const unchanged = await cli('set-role', organizer.user.email, 'admin');
    assert.match(unchanged.stdout, /already has the role admin/);
    const badRole = await cli('set-role', organizer.user.email, 'king');
    assert.equal(badRole.code, 2);
    assert.match(badRole.stderr, /^error: role must be one of admin, organizer, user, not 'king'/);
  });

  it('deactivates a user, whose token then stops working, and lists active users unless asked for all', async () => {
    const learner = await userWithToken(server, 'user');
    assert.equal((await learner.api.get('/api/v2/me/')).status, 200);
    const deactivated = await cli('deactivate', learner.user.email);
    assert.equal(deactivated.code, 0, deactivated.stderr);
    assert.equal((await learner.api.get('/api/v2/me/')).body.error.code, 'invalid_token');
    assert.equal((await server.api.get(`/api/v2/users/${learner.user.public_id}/`)).body.is_active, false);
    const again = await cli('deactivate', learner.user.email);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /is already deactivated/);

    const active = (await cliJson('list')) as Array<{ email: string; is_active: boolean }>;
    assert.ok(active.every((user) => user.is_active));
    assert.ok(!active.some((user) => user.email === learner.user.email));
    const all = (await cliJson('list', '--all')) as Array<{ email: string }>;
    assert.ok(all.some((user) => user.email === learner.user.email));
    const text = await cli('list', '--role', 'admin');
    assert.equal(text.code, 0, text.stderr);
    assert.ok(
      text.stdout
        .trim()
        .split('\n')
        .every((line) => / {2}admin {2}active {2}/.test(line)),
      text.stdout,
    );
  });

  it('keeps an active admin: the last one can be neither deactivated nor demoted', async () => {
    const last = (await server.api.get('/api/v2/me/')).body.user.email as string;
    const admins = (await cliJson('list', '--role', 'admin')) as Array<{ email: string }>;
    for (const admin of admins.filter((admin) => admin.email !== last)) assert.equal((await cli('deactivate', admin.email)).code, 0);
    const demoted = await cli('set-role', last, 'user');
    assert.equal(demoted.code, 1);
    assert.match(demoted.stderr, /^error: /);
    const deactivated = await cli('deactivate', last);
    assert.equal(deactivated.code, 1);
    assert.equal((await server.api.get('/api/v2/me/')).status, 200, 'the bootstrap admin still works');
  });

  it('names an unknown email', async () => {
    const missing = await cli('deactivate', 'nobody@example.com');
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'error: no user has the email nobody@example.com\n');
  });
});
