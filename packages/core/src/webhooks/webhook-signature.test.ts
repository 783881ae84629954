import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  WebhookVerificationError,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookHeaders,
} from './webhook-signature.ts';

// The published Standard Webhooks test vector.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const VECTOR_NOW = VECTOR.timestamp * 1000;
const vectorHeaders = () => ({
  'webhook-id': VECTOR.id,
  'webhook-timestamp': String(VECTOR.timestamp),
  'webhook-signature': VECTOR.signature,
});

const rejects = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (error: unknown) => error instanceof WebhookVerificationError && message.test(error.message));

describe('generateWebhookSecret', () => {
  it('is whsec_ + base64 of 24 bytes, different every time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(Buffer.from(a.slice(6), 'base64').length, 24);
    assert.notEqual(a, b);
  });
});

describe('signWebhook', () => {
  it('reproduces the published test vector', () => {
    assert.equal(signWebhook(VECTOR), VECTOR.signature);
  });

  it('signs bytes and strings alike, accepts a Date and a secret without prefix', () => {
    assert.equal(signWebhook({ ...VECTOR, body: Buffer.from(VECTOR.body) }), VECTOR.signature);
    assert.equal(signWebhook({ ...VECTOR, timestamp: new Date(VECTOR_NOW + 999) }), VECTOR.signature);
    assert.equal(signWebhook({ ...VECTOR, secret: VECTOR.secret.slice(6) }), VECTOR.signature);
  });

  it('builds the three delivery headers', () => {
    assert.deepEqual(webhookHeaders(VECTOR), vectorHeaders());
  });

  it('refuses malformed secrets and timestamps', () => {
    assert.throws(() => signWebhook({ ...VECTOR, secret: 'whsec_' }), TypeError);
    assert.throws(() => signWebhook({ ...VECTOR, secret: 'whsec_not base64!' }), TypeError);
    assert.throws(() => signWebhook({ ...VECTOR, timestamp: 1.5 }), TypeError);
    assert.throws(() => signWebhook({ ...VECTOR, timestamp: -1 }), TypeError);
  });
});

describe('verifyWebhook', () => {
  it('accepts the test vector and returns the parsed payload', () => {
    assert.deepEqual(verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, { now: VECTOR_NOW }), { test: 2432232314 });
  });

  it('reads headers case-insensitively from plain objects and from Headers', () => {
    const upper = Object.fromEntries(Object.entries(vectorHeaders()).map(([k, v]) => [k.toUpperCase(), v]));
    assert.deepEqual(verifyWebhook(VECTOR.secret, upper, VECTOR.body, { now: VECTOR_NOW }), { test: 2432232314 });
    const fetchHeaders = new Headers(upper);
    assert.deepEqual(verifyWebhook(VECTOR.secret, fetchHeaders, VECTOR.body, { now: new Date(VECTOR_NOW) }), { test: 2432232314 });
  });

  it('accepts a raw Buffer body', () => {
    assert.deepEqual(verifyWebhook(VECTOR.secret, vectorHeaders(), Buffer.from(VECTOR.body), { now: VECTOR_NOW }), {
      test: 2432232314,
    });
  });

  it('accepts when any of several space-separated signatures matches', () => {
    const headers = { ...vectorHeaders(), 'webhook-signature': `v1a,abc v1,AAAA${VECTOR.signature.slice(7)} ${VECTOR.signature}` };
    assert.deepEqual(verifyWebhook(VECTOR.secret, headers, VECTOR.body, { now: VECTOR_NOW }), { test: 2432232314 });
  });

  it('rejects a wrong secret', () => {
    rejects(() => verifyWebhook(generateWebhookSecret(), vectorHeaders(), VECTOR.body, { now: VECTOR_NOW }), /No matching signature/);
  });

  it('rejects a tampered body, id or timestamp', () => {
    rejects(() => verifyWebhook(VECTOR.secret, vectorHeaders(), '{"test": 2432232315}', { now: VECTOR_NOW }), /No matching/);
    rejects(
      () => verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-id': 'msg_other' }, VECTOR.body, { now: VECTOR_NOW }),
      /No matching/,
    );
    rejects(
      () =>
        verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-timestamp': String(VECTOR.timestamp + 1) }, VECTOR.body, {
          now: VECTOR_NOW,
        }),
      /No matching/,
    );
  });

  it('rejects stale and future timestamps beyond the tolerance, accepts at its edge', () => {
    const at = (offsetSeconds: number, toleranceSeconds?: number) => () =>
      verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, {
        now: VECTOR_NOW + offsetSeconds * 1000,
        ...(toleranceSeconds ? { toleranceSeconds } : {}),
      });
    rejects(at(301), /too old/);
    rejects(at(-301), /too new/);
    assert.doesNotThrow(at(300));
    assert.doesNotThrow(at(-300));
    rejects(at(61, 60), /too old/);
    // Without `now`, the real clock makes a 2021 timestamp stale.
    rejects(() => verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body), /too old/);
  });

  it('rejects missing headers, naming them', () => {
    const { 'webhook-signature': _signature, ...noSignature } = vectorHeaders();
    rejects(() => verifyWebhook(VECTOR.secret, noSignature, VECTOR.body, { now: VECTOR_NOW }), /webhook-signature/);
    rejects(() => verifyWebhook(VECTOR.secret, {}, VECTOR.body, { now: VECTOR_NOW }), /webhook-id, webhook-timestamp, webhook-signature/);
    rejects(() => verifyWebhook(VECTOR.secret, new Headers(), VECTOR.body, { now: VECTOR_NOW }), /Missing required header/);
  });

  it('rejects malformed timestamps and signatures without a v1 entry', () => {
    for (const bad of ['abc', '1614265330.5', '-1614265330', '']) {
      assert.throws(() =>
        verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-timestamp': bad }, VECTOR.body, { now: VECTOR_NOW }),
      WebhookVerificationError);
    }
    rejects(
      () => verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-signature': 'v2,abc' }, VECTOR.body, { now: VECTOR_NOW }),
      /no v1 signature/,
    );
  });

  it('rejects a correctly signed body that is not JSON', () => {
    const body = 'not json';
    const headers = webhookHeaders({ secret: VECTOR.secret, id: VECTOR.id, timestamp: VECTOR.timestamp, body });
    rejects(() => verifyWebhook(VECTOR.secret, headers, body, { now: VECTOR_NOW }), /not valid JSON/);
  });
});

describe('interoperability with the standardwebhooks package', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ id: 'msg_01', type: 'article.created', data: { object: { name: 'Café ✓' } } });

  it('the reference library verifies what signWebhook produces', () => {
    const headers = webhookHeaders({ secret, id: 'msg_01', timestamp: new Date(), body });
    assert.deepEqual(new Webhook(secret).verify(body, { ...headers }), JSON.parse(body));
  });

  it('verifyWebhook accepts what the reference library signs', () => {
    const now = new Date();
    const signature = new Webhook(secret).sign('msg_02', now, body);
    const headers = {
      'webhook-id': 'msg_02',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    assert.deepEqual(verifyWebhook(secret, headers, body), JSON.parse(body));
  });

  it('both agree on the test vector', () => {
    assert.equal(new Webhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR_NOW), VECTOR.body), signWebhook(VECTOR));
  });
});
