import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldError, LecternError, notFound } from '../shared/errors.ts';
import { parseInput } from '../shared/validation.ts';
import { z } from 'zod';
import { failedOutcome, itemErrorMessage } from './job-item-rules.ts';
import { ItemFailure } from './job.ts';

describe('itemErrorMessage', () => {
  it('names the first field and its problem', () => {
    assert.equal(itemErrorMessage(fieldError('email', 'Enter a valid email address.')), 'email: Enter a valid email address.');
    const error = (() => {
      try {
        parseInput(z.strictObject({ name: z.string(), age: z.number() }), { age: 'x', extra: 1 });
      } catch (caught) {
        return caught as LecternError;
      }
      throw new Error('expected a validation error');
    })();
    assert.match(itemErrorMessage(error), /^(name|age|extra): ./);
  });

  it('uses a non-field error, else the error’s own message', () => {
    assert.equal(
      itemErrorMessage(new LecternError('validation_error', 'generic', { nonFieldErrors: ['Expected an object.'] })),
      'Expected an object.',
    );
    assert.equal(itemErrorMessage(notFound('Event')), 'Event not found.');
  });
});

describe('failedOutcome', () => {
  it('keeps the code, and the public_id of the resource an ItemFailure is about', () => {
    assert.deepEqual(failedOutcome(new ItemFailure('duplicate', 'Taken.', 'abc')), {
      status: 'failed',
      publicId: 'abc',
      errorCode: 'duplicate',
      errorMessage: 'Taken.',
    });
    assert.deepEqual(failedOutcome(notFound('User')), {
      status: 'failed',
      publicId: null,
      errorCode: 'not_found',
      errorMessage: 'User not found.',
    });
  });
});
