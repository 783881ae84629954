/** `lectern.contextFor`: acting as a user named by public id or record, as an embedder does. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLectern, isLecternError, type Lectern, type User } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'none';
  } catch (error) {
    if (!isLecternError(error)) throw error;
    return error.code;
  }
};

describe('lectern.contextFor', () => {
  let lectern: Lectern;
  let organizer: User;
  let learner: User;
  before(async () => {
    lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
    const app = lectern.context();
    organizer = await lectern.users.create(app, { email: 'ada@example.com', name: 'Ada', role: 'organizer' });
    learner = await lectern.users.create(app, { email: 'alan@example.com', name: 'Alan' });
  });
  after(() => lectern.close());

  it("acts with the user's role, named by record or by public id", async () => {
    const asOrganizer = await lectern.contextFor(organizer);
    assert.equal(asOrganizer.actor.kind === 'user' && asOrganizer.actor.publicId, organizer.public_id);
    const article = await lectern.content.create(asOrganizer, 'article', { name: 'Intro' });
    assert.equal(article.name, 'Intro');
    const asLearner = await lectern.contextFor(learner.public_id, 'req_embedded');
    assert.equal(asLearner.requestId, 'req_embedded');
    assert.equal(await codeOf(lectern.content.create(asLearner, 'article', { name: 'Not allowed' })), 'forbidden');
    assert.equal(await codeOf(lectern.users.list(asLearner, {})), 'forbidden');
    assert.deepEqual(
      (await lectern.content.list(asLearner, {})).data.map((item) => item.name),
      ['Intro'],
    );
  });

  it('reads the user again, so a role changed since the record was read counts', async () => {
    const stale = { ...learner };
    await lectern.users.update(lectern.context(), learner.public_id, { role: 'organizer' });
    const promoted = await lectern.contextFor(stale);
    assert.equal(promoted.actor.kind === 'user' && promoted.actor.role, 'organizer');
    await lectern.users.update(lectern.context(), learner.public_id, { role: 'user' });
  });

  it('refuses an unknown user and a deactivated one', async () => {
    assert.equal(await codeOf(lectern.contextFor('00000000-0000-4000-8000-000000000000')), 'not_found');
    assert.equal(await codeOf(lectern.contextFor('not-an-id')), 'not_found');
    const gone = await lectern.users.create(lectern.context(), { email: 'eve@example.com', name: 'Eve' });
    await lectern.users.update(lectern.context(), gone.public_id, { is_active: false });
    assert.equal(await codeOf(lectern.contextFor(gone)), 'forbidden');
  });
});
