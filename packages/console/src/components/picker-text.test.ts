import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numericId, parsePasted } from './picker-text.ts';

describe('parsePasted', () => {
  it('takes a UUID as an id (lower-cased) and an address as an email', () => {
    assert.deepEqual(parsePasted(' 0B1A7C52-1D3E-4F5A-9B8C-7D6E5F4A3B2C '), {
      tokens: [{ kind: 'id', value: '0b1a7c52-1d3e-4f5a-9b8c-7d6e5f4a3b2c' }],
      rest: '',
    });
    assert.deepEqual(parsePasted('Ann.Lee@Example.org').tokens, [{ kind: 'email', value: 'Ann.Lee@Example.org' }]);
  });

  it('splits a pasted column or list and drops repeats', () => {
    const pasted = parsePasted('a@x.org\nb@x.org; a@x.org, <c@x.org>');
    assert.deepEqual(
      pasted.tokens.map((token) => token.value),
      ['a@x.org', 'b@x.org', 'c@x.org'],
    );
    assert.equal(pasted.rest, '');
  });

  it('leaves names as a search', () => {
    assert.deepEqual(parsePasted('Ada Lovelace'), { tokens: [], rest: 'Ada Lovelace' });
    assert.deepEqual(parsePasted('not-an-id @nope'), { tokens: [], rest: 'not-an-id @nope' });
  });

  it('reads a numeric id only when the whole text is a number', () => {
    assert.equal(numericId(' 42 '), 42);
    assert.equal(numericId('4 2'), undefined);
    assert.equal(numericId('Berlin'), undefined);
  });
});
