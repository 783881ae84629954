import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestTargetProblem } from './request-target.ts';

describe('request targets', () => {
  it('accepts origin-form paths with queries', () => {
    for (const target of [
      '/',
      '/api/v2/users/',
      '/api/v2/users?search=a//b',
      '/api/v2/users/?q=..',
      '/api/v2/users/a.b',
      '/api/v2/x...y/',
    ]) {
      assert.equal(requestTargetProblem(target), undefined, target);
    }
  });

  it('refuses what the URL parser would read as a host', () => {
    for (const target of ['//x/api/v2/api-tokens/', '///api/v2/users/', '/\\x/api/v2/users/', '\\\\x/api', '//']) {
      assert.match(requestTargetProblem(target) ?? '', /exactly one '\/'/, target);
    }
  });

  it('refuses absolute-form, asterisk-form, authority-form and empty targets', () => {
    for (const target of ['http://evil.example/api/v2/users/', 'HTTPS://x/', '*', 'example.com:443', '', 'api/v2/users/']) {
      assert.match(requestTargetProblem(target) ?? '', /exactly one '\/'/, target);
    }
  });

  it('refuses paths the URL parser would rewrite', () => {
    assert.match(requestTargetProblem('/api/v2\\api-tokens/') ?? '', /'\\'/);
    for (const target of [
      '/api/v2/x/../api-tokens/',
      '/api/v2/./users/',
      '/api/v2/x/%2e%2E/api-tokens',
      '/api/v2/users/..',
      '/api/v2/users/.%2e?x=1',
    ]) {
      assert.match(requestTargetProblem(target) ?? '', /segments/, target);
    }
  });
});
