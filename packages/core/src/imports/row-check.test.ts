import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeaderError, mapColumns } from './import-columns.ts';
import { IMPORT_KINDS } from './import-kinds.ts';
import { checkRow, unreadRowFailure } from './row-check.ts';

const { users, assignments, enrollments } = IMPORT_KINDS;
const CONTENT = '0b6f1c1e-2f58-4c53-9d59-6f6ad1c1d6a1';
const USER = '6c0cb7f5-59a2-4d1d-b7a0-8a1b3b7b9c11';

describe('the header', () => {
  it('maps names in any case and order', () => {
    const columns = mapColumns(users, [' Name', 'EMAIL', 'employee_id']);
    assert.deepEqual(
      [...columns.indexOf],
      [
        ['name', 0],
        ['email', 1],
        ['employee_id', 2],
      ],
    );
    assert.deepEqual(columns.header, [' Name', 'EMAIL', 'employee_id']);
  });

  it('refuses unknown, missing, repeated and unnamed columns, naming them', () => {
    assert.throws(
      () => mapColumns(users, ['email', 'name', 'phone']),
      (e: Error) => e instanceof HeaderError && /unknown column 'phone'/.test(e.message),
    );
    assert.throws(() => mapColumns(users, ['email']), /missing required column 'name'/);
    assert.throws(() => mapColumns(users, ['email', 'name', 'Email']), /'email' appears twice/);
    assert.throws(() => mapColumns(users, ['email', 'name', '']), /column 3 of the header has no name/);
    assert.throws(() => mapColumns(assignments, ['content_item_id', 'due_date']), /'user_email' or 'user_id'/);
    assert.throws(() => mapColumns(enrollments, ['user_id', 'event_id']), /missing required column 'attendance_method'/);
  });
});

describe('a row', () => {
  const userColumns = mapColumns(users, ['email', 'name', 'role', 'employee_id']);

  it('passes with core’s rules and leaves empty optional cells out', () => {
    const result = checkRow(users, userColumns, [' Ann@Example.com ', 'Ann', 'regular', '']);
    assert.deepEqual(result, { ok: true, item: { email: 'Ann@Example.com', name: 'Ann', role: 'user' }, user: null });
  });

  it('fails with every problem named, in the API’s words', () => {
    const result = checkRow(users, userColumns, ['not-an-email', '', 'king', 'E1']);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.code, 'validation_error');
    assert.match(result.message, /email: Enter a valid email address\./);
    assert.match(result.message, /name: This field is required\./);
    assert.match(result.message, /role: Must be one of: admin, organizer, user, regular\./);
  });

  it('fails when its field count differs from the header’s', () => {
    const result = checkRow(users, userColumns, ['a@example.com', 'Ann']);
    assert.deepEqual(result, { ok: false, code: 'column_count', message: 'The row has 2 fields; the header has 4.' });
  });

  it('names its user by email or id, not both and not neither', () => {
    const columns = mapColumns(assignments, ['user_email', 'user_id', 'content_item_id', 'due_date']);
    assert.deepEqual(checkRow(assignments, columns, ['Bo@Example.com', '', CONTENT, '2027-02-28']), {
      ok: true,
      item: { content_item_id: CONTENT, due_date: '2027-02-28' },
      user: { email: 'bo@example.com' },
    });
    assert.deepEqual(checkRow(assignments, columns, ['', USER.toUpperCase(), CONTENT, '']), {
      ok: true,
      item: { content_item_id: CONTENT },
      user: { id: USER },
    });
    const both = checkRow(assignments, columns, ['bo@example.com', USER, CONTENT, '']);
    assert.ok(!both.ok && /not both/.test(both.message));
    const neither = checkRow(assignments, columns, ['', '', CONTENT, '']);
    assert.ok(!neither.ok && /user_email or user_id: This field is required/.test(neither.message));
    const bad = checkRow(assignments, columns, ['bo@', 'x', 'nope', '2027-02-30']);
    assert.ok(!bad.ok && /not both/.test(bad.message));
    const badDate = checkRow(assignments, columns, ['', 'x', 'nope', '2027-02-30']);
    assert.ok(!badDate.ok);
    assert.match(badDate.message, /user_id: Must be a UUID\./);
    assert.match(badDate.message, /content_item_id: Must be a UUID\./);
    assert.match(badDate.message, /due_date: Must be a date in the form YYYY-MM-DD\./);
  });

  it('reads enrollment booleans and checks the attendance method', () => {
    const columns = mapColumns(enrollments, ['user_id', 'event_id', 'attendance_method', 'accept_waitlist']);
    assert.deepEqual(checkRow(enrollments, columns, [USER, CONTENT, 'online', 'TRUE']), {
      ok: true,
      item: { event_id: CONTENT, attendance_method: 'online', accept_waitlist: true },
      user: { id: USER },
    });
    const bad = checkRow(enrollments, columns, [USER, CONTENT, 'by_post', 'maybe']);
    assert.ok(!bad.ok);
    assert.match(bad.message, /attendance_method: Must be one of: in_person, online\./);
    assert.match(bad.message, /accept_waitlist: Must be true or false\./);
  });
});

describe('a row the reader could not read whole', () => {
  const header = ['email', ' name ', ''];

  it('fails as too long, or names its fields that are not UTF-8; a row read whole has no such failure', () => {
    assert.deepEqual(unreadRowFailure({ tooLong: true }, header), {
      code: 'row_too_long',
      message: "The row is longer than the limit of 1048576 bytes, or has more than 8 fields beyond the kind's columns; it was not read.",
    });
    assert.deepEqual(unreadRowFailure({ badFields: [1, 2] }, header), {
      code: 'validation_error',
      message: 'name, column 3: not valid UTF-8',
    });
    assert.equal(unreadRowFailure({ badFields: null }, header), undefined);
    assert.equal(unreadRowFailure({ tooLong: false }, header), undefined);
  });
});
