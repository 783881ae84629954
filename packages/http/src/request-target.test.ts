import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseTarget, requestTargetProblem } from './request-target.ts';

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

describe('parsing request targets', () => {
  const asParsed = (target: string) => {
    const url = new URL(target, 'http://lectern.invalid');
    return { pathname: url.pathname, query: [...url.searchParams] };
  };
  const parsed = (target: string) => {
    const { pathname, query } = parseTarget(target);
    return { pathname, query: [...query()] };
  };

  it('reads plain and unusual targets as the URL parser does', () => {
    for (const target of [
      '/api/v2/users/',
      '/api/v2/users/0b7d1b8e-8f7e-4a43-9a3b-52f0f4d0c1a2/',
      '/api/v2/users/?page=2&page_size=10&ordering=-name',
      '/api/v2/users/?search=user%204242&search=a+b',
      '/api/v2/users/?q=\'"<>`{}|^[]&x=%zz&=&&y',
      '/api/v2/users/?q=a#frag',
      '/api/v2/us ers/?q=ü',
      '/api/v2/ü/%C3%BC/"x"/<y>/{z}/`',
      '/api/v2/users//x///',
      '/?',
      '/a?b?c=d',
      '/a??x=1',
    ]) {
      assert.deepEqual(parsed(target), asParsed(target), target);
    }
  });

  it('agrees with the URL parser on any target the server accepts', () => {
    const chars = fc.constantFrom(...'/?#&=+%.-_~!$\'()*,;:@ azAZ09"<>`{}|^[]üé\t'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 30 }), (rest) => {
        const target = `/a${rest}`;
        fc.pre(requestTargetProblem(target) === undefined);
        assert.deepEqual(parsed(target), asParsed(target), target);
      }),
      { numRuns: 5000 },
    );
  });
});
