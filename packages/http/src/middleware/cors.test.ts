import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorsPolicy, isPreflight } from './cors.ts';

describe('CORS policy', () => {
  it('adds nothing when no origin is listed, and refuses every preflight', () => {
    const policy = new CorsPolicy();
    assert.deepEqual(policy.headers('https://a.example'), {});
    assert.throws(() => policy.checkPreflight('https://a.example'), /not enabled/);
  });

  it('answers listed origins by name and others with Vary only', () => {
    const policy = new CorsPolicy(['https://a.example']);
    assert.equal(policy.headers('https://a.example')['Access-Control-Allow-Origin'], 'https://a.example');
    assert.deepEqual(policy.headers('https://b.example'), { Vary: 'Origin' });
    assert.deepEqual(policy.headers(undefined), { Vary: 'Origin' });
    assert.throws(() => policy.checkPreflight('https://b.example'), /https:\/\/b\.example are not allowed/);
    policy.checkPreflight('https://a.example');
    const preflight = policy.headers('https://a.example', 'GET, HEAD, OPTIONS');
    assert.equal(preflight['Access-Control-Allow-Methods'], 'GET, HEAD, OPTIONS');
    assert.equal(preflight['Access-Control-Expose-Headers'], undefined);
  });

  it('answers any origin with * when * is listed', () => {
    const policy = new CorsPolicy(['*']);
    assert.equal(policy.headers('null')['Access-Control-Allow-Origin'], '*');
    policy.checkPreflight('https://anyone.example');
  });

  it('knows a preflight by OPTIONS, Origin and the requested method', () => {
    assert.equal(isPreflight('OPTIONS', 'https://a.example', 'POST'), true);
    assert.equal(isPreflight('OPTIONS', 'https://a.example', undefined), false);
    assert.equal(isPreflight('OPTIONS', undefined, 'POST'), false);
    assert.equal(isPreflight('GET', 'https://a.example', 'POST'), false);
  });
});
