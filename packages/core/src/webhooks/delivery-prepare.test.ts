import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { DueDelivery } from '../ports/webhook-store.ts';
import { prepareAttempt } from './delivery-prepare.ts';
import type { WebhookEndpointRecord } from './webhook-subscription.ts';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const endpoint = (url: string, isActive = true): WebhookEndpointRecord => ({
  id: 1,
  secret,
  firstFailureAt: null,
  view: {
    id: 'ep_0000000000000000000000000A',
    url,
    events: ['article.created'],
    description: '',
    is_active: isActive,
    disabled_reason: null,
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
  },
});
const delivery = (eventType = 'article.created'): DueDelivery => ({
  id: 7,
  endpointId: 1,
  eventId: 'msg_01234567890123456789012345',
  eventType,
  attempts: 2,
  finalAttempt: false,
  payload: '{"id":"msg_01234567890123456789012345","type":"article.created"}',
});
const resolve = async () => ['93.184.215.14'];

describe('prepareAttempt', () => {
  it('signs with the current secret and a fresh timestamp, verifiable by standardwebhooks', async () => {
    const now = new Date();
    const prepared = await prepareAttempt(delivery(), endpoint('https://hooks.example/in'), { allowPrivateTargets: false, now, resolve });
    assert.equal(prepared.kind, 'send');
    if (prepared.kind !== 'send') return;
    assert.equal(prepared.request.url, 'https://hooks.example/in');
    assert.equal(prepared.request.body, delivery().payload);
    assert.equal(prepared.request.headers['webhook-timestamp'], String(Math.floor(now.getTime() / 1000)));
    const payload = new Webhook(secret).verify(prepared.request.body, prepared.request.headers) as { id: string };
    assert.equal(payload.id, delivery().eventId);
  });

  it('cancels when the endpoint is gone, or inactive for anything but a ping', async () => {
    const options = { allowPrivateTargets: true, now: new Date() };
    assert.deepEqual(await prepareAttempt(delivery(), undefined, options), { kind: 'cancel' });
    assert.deepEqual(await prepareAttempt(delivery(), endpoint('http://127.0.0.1/', false), options), { kind: 'cancel' });
    assert.equal((await prepareAttempt(delivery('webhook.ping'), endpoint('http://127.0.0.1/', false), options)).kind, 'send');
    assert.equal((await prepareAttempt(delivery('webhook.ping'), undefined, options)).kind, 'cancel');
  });

  it('refuses a target that fails the address policy now', async () => {
    const rebound = async () => ['10.0.0.7'];
    const prepared = await prepareAttempt(delivery(), endpoint('https://hooks.example/in'), {
      allowPrivateTargets: false,
      now: new Date(),
      resolve: rebound,
    });
    assert.equal(prepared.kind, 'refuse');
    assert.match((prepared as { error: string }).error, /^Target refused: .*private/);
  });
});
