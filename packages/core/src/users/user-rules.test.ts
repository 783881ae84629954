import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { assertKeepsAnAdmin, assertManagerAllowed } from './user-rules.ts';

const code = (fn: () => void) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof LecternError);
    return error.code;
  }
};

describe('user rules', () => {
  it('refuses self-management and cycles', () => {
    assert.equal(
      code(() => assertManagerAllowed(1, 1, [])),
      'validation_error',
    );
    assert.equal(
      code(() => assertManagerAllowed(1, 2, [3, 1])),
      'validation_error',
    );
    assert.equal(
      code(() => assertManagerAllowed(1, 2, [3, 4])),
      'ok',
    );
  });

  it('keeps the last active admin', () => {
    const admin = { role: 'admin', is_active: true };
    assert.equal(
      code(() => assertKeepsAnAdmin(admin, { role: 'user', is_active: true }, 1)),
      'conflict',
    );
    assert.equal(
      code(() => assertKeepsAnAdmin(admin, { role: 'admin', is_active: false }, 1)),
      'conflict',
    );
    assert.equal(
      code(() => assertKeepsAnAdmin(admin, { role: 'user', is_active: true }, 2)),
      'ok',
    );
    assert.equal(
      code(() => assertKeepsAnAdmin({ role: 'admin', is_active: false }, { role: 'user', is_active: false }, 1)),
      'ok',
    );
  });
});
