import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook, WebhookVerificationError as ReferenceVerificationError } from 'standardwebhooks';
import {
  WebhookPayloadError,
  WebhookVerificationError,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
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

  it('accepts secrets without base64 padding, as the reference libraries do', () => {
    // the vector's key minus its last character: 23 bytes, whose padded form ends in "="
    const unpadded = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS';
    const at = new Date(VECTOR_NOW);
    assert.equal(signWebhook({ ...VECTOR, secret: unpadded }), new Webhook(unpadded).sign(VECTOR.id, at, VECTOR.body));
    assert.equal(signWebhook({ ...VECTOR, secret: unpadded }), signWebhook({ ...VECTOR, secret: `${unpadded}=` }));
    const twoShort = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa';
    assert.equal(signWebhook({ ...VECTOR, secret: twoShort }), new Webhook(twoShort).sign(VECTOR.id, at, VECTOR.body));
    assert.equal(signWebhook({ ...VECTOR, secret: twoShort }), signWebhook({ ...VECTOR, secret: `${twoShort}==` }));
  });

  it('refuses malformed secrets and timestamps', () => {
    assert.throws(() => signWebhook({ ...VECTOR, secret: 'whsec_' }), TypeError);
    assert.throws(() => signWebhook({ ...VECTOR, secret: 'whsec_not base64!' }), TypeError);
    // invalid characters, URL-safe letters, padding in the middle, too much padding, a lone trailing character
    for (const bad of [
      'MfKQ9r8GKYq!TwjUPD8ILPZIo2LaLaSw',
      'MfKQ9r8GKYq-TwjUPD8ILPZIo2LaLaSw',
      'MfKQ=r8GKYqrTwjU',
      'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa===',
      'MfKQ9r8GK',
    ]) {
      assert.throws(() => signWebhook({ ...VECTOR, secret: `whsec_${bad}` }), TypeError, bad);
      assert.throws(() => verifyWebhook(`whsec_${bad}`, vectorHeaders(), VECTOR.body, { now: VECTOR_NOW }), TypeError, bad);
    }
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
      assert.throws(
        () => verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-timestamp': bad }, VECTOR.body, { now: VECTOR_NOW }),
        WebhookVerificationError,
      );
    }
    rejects(
      () => verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-signature': 'v2,abc' }, VECTOR.body, { now: VECTOR_NOW }),
      /no v1 signature/,
    );
  });

  it('tells an authentic body that is not JSON apart from a forgery', () => {
    const body = 'not json';
    const headers = webhookHeaders({ secret: VECTOR.secret, id: VECTOR.id, timestamp: VECTOR.timestamp, body });
    assert.throws(
      () => verifyWebhook(VECTOR.secret, headers, body, { now: VECTOR_NOW }),
      (error: unknown) => error instanceof WebhookPayloadError && !(error instanceof WebhookVerificationError),
    );
    assert.doesNotThrow(() => verifyWebhookSignature(VECTOR.secret, headers, body, { now: VECTOR_NOW }));
    rejects(() => verifyWebhookSignature(VECTOR.secret, headers, 'not json!', { now: VECTOR_NOW }), /No matching/);
  });
});

describe('verifyWebhookSignature', () => {
  it('verifies without parsing and returns nothing', () => {
    assert.equal(verifyWebhookSignature(VECTOR.secret, vectorHeaders(), VECTOR.body, { now: VECTOR_NOW }), undefined);
    rejects(() => verifyWebhookSignature(VECTOR.secret, vectorHeaders(), `${VECTOR.body} `, { now: VECTOR_NOW }), /No matching/);
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

  // Every case is signed by the reference library and judged by both sides: they must agree.
  it('accepts and rejects exactly what the reference library does', () => {
    const now = new Date();
    const seconds = String(Math.floor(now.getTime() / 1000));
    const keys = [secret, secret.slice(6), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa', VECTOR.secret];
    const bodies = [body, '{"test": 2432232314}', 'plain text, not JSON', '{"emoji":"\u{1F600}","nul":"\\u0000"}'];
    const signed = (key: string, id: string, payload: string) => new Webhook(key).sign(id, now, payload);
    for (const key of keys) {
      for (const payload of bodies) {
        const good = { 'webhook-id': 'msg_x', 'webhook-timestamp': seconds, 'webhook-signature': signed(key, 'msg_x', payload) };
        const cases: Array<[string, Record<string, string>, string]> = [
          ['as signed', good, payload],
          ['rotation list', { ...good, 'webhook-signature': `v1,bm90IGl0 ${good['webhook-signature']}` }, payload],
          ['altered body', good, `${payload}.`],
          ['other id', { ...good, 'webhook-id': 'msg_y' }, payload],
          ['other key', { ...good, 'webhook-signature': signed(generateWebhookSecret(), 'msg_x', payload) }, payload],
          ['unknown version only', { ...good, 'webhook-signature': good['webhook-signature'].replace('v1,', 'v2,') }, payload],
          [
            'stale',
            {
              ...good,
              'webhook-timestamp': String(Number(seconds) - 400),
              'webhook-signature': new Webhook(key).sign('msg_x', new Date(now.getTime() - 400_000), payload),
            },
            payload,
          ],
        ];
        for (const [name, headers, received] of cases) {
          const reference = agrees(() => new Webhook(key).verify(received, headers, { jsonParse: false }), ReferenceVerificationError);
          const ours = agrees(() => verifyWebhookSignature(key, headers, received, { now }), WebhookVerificationError);
          assert.equal(ours, reference, `${name} with ${key} over ${payload}`);
        }
      }
    }
  });

  it('parses like the reference library, and both fail on a signed body that is not JSON', () => {
    const text = 'plain text';
    const now = new Date();
    const headers = webhookHeaders({ secret, id: 'msg_03', timestamp: now, body: text });
    assert.throws(() => new Webhook(secret).verify(text, headers), SyntaxError, 'the reference library fails parsing, not verification');
    assert.throws(() => verifyWebhook(secret, headers, text, { now }), WebhookPayloadError);
    assert.equal(new Webhook(secret).verify(text, headers, { jsonParse: false }), undefined);
  });
});

/** 'accepted', 'rejected' (the library's verification error), anything else rethrown. */
function agrees(verify: () => unknown, rejection: new (...args: never[]) => Error): 'accepted' | 'rejected' {
  try {
    verify();
    return 'accepted';
  } catch (error) {
    if (error instanceof rejection) return 'rejected';
    throw error;
  }
}
