import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { LecternError } from './errors.ts';
import { parseInput } from './validation.ts';

const schema = z.strictObject({ name: z.string().min(1), tags: z.array(z.string()).optional() });

const fieldErrorsOf = (input: unknown) => {
  try {
    parseInput(schema, input);
  } catch (error) {
    assert.ok(error instanceof LecternError);
    assert.equal(error.code, 'validation_error');
    return { fields: error.fieldErrors, general: error.nonFieldErrors };
  }
  assert.fail('expected a validation error');
};

describe('parseInput', () => {
  it('names every invalid field, unknown fields included, in words a person can act on', () => {
    assert.deepEqual(fieldErrorsOf({ colour: 'red' }).fields, { name: ['This field is required.'], colour: ['Unknown field.'] });
    assert.deepEqual(fieldErrorsOf({ name: '', tags: ['ok', 3] }).fields, {
      name: ['Must be at least 1 character long.'],
      'tags.1': ['Must be a string.'],
    });
    assert.deepEqual(fieldErrorsOf({ name: null }).fields, { name: ['This field may not be null.'] });
  });

  it('refuses the NUL character in any text of a valid body, naming where it is', () => {
    const nul = 'Must not contain the NUL character (U+0000).';
    assert.deepEqual(fieldErrorsOf({ name: 'a\u0000b', tags: ['ok', '\u0000'] }).fields, { name: [nul], 'tags.1': [nul] });
  });

  it('keeps a __proto__ key from the body inert', () => {
    const body = JSON.parse('{"name": "x", "__proto__": {"polluted": true}}');
    const { fields } = fieldErrorsOf(body);
    assert.deepEqual(Object.keys(fields!), ['__proto__']);
    assert.deepEqual(fields!['__proto__'], ['Unknown field.']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
