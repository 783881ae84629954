import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { userSchema } from '@lectern/core';
import { csvColumns, rowEncoder } from './export-rows.ts';

describe('export rows', () => {
  const items = [
    { public_id: 'a', user: null, tags: ['x', 'y'], score: 3 },
    { public_id: 'b', user: { public_id: 'u', email: '=cmd@example.com' }, tags: [], score: null },
  ];

  it('take their CSV columns from every item of the first batch, a nested object as dotted columns', () => {
    assert.deepEqual(
      csvColumns(items).map((column) => column.name),
      ['public_id', 'user.public_id', 'user.email', 'tags', 'score'],
    );
  });

  it('write CSV cells through the CSV writer: empty nulls, JSON arrays, quoted formulas', () => {
    const encoder = rowEncoder('csv');
    const text = encoder.start(items) + encoder.encode(items) + encoder.encode([{ public_id: 'c', user: { public_id: 'v' } }]);
    assert.deepEqual(parse(text), [
      ['public_id', 'user.public_id', 'user.email', 'tags', 'score'],
      ['a', '', '', '["x","y"]', '3'],
      ['b', 'u', "'=cmd@example.com", '[]', ''],
      ['c', 'v', '', '', ''],
    ]);
  });

  it('write an object where the first batch had only nulls as its JSON text, losing nothing', () => {
    const encoder = rowEncoder('csv');
    const text = encoder.start([{ id: 1, user: null }]) + encoder.encode([{ id: 2, user: { public_id: 'u' } }]);
    assert.deepEqual(parse(text), [
      ['id', 'user'],
      ['2', '{"public_id":"u"}'],
    ]);
  });

  it('take their columns from the described item first, so a reference null in every row of the first batch keeps its columns', () => {
    const described = z.object({
      id: z.number(),
      user: z.object({ public_id: z.string(), email: z.string() }).nullable(),
      note: z.string().optional(),
    });
    const encoder = rowEncoder('csv');
    const text =
      encoder.start([{ id: 1, user: null, extra: 'x' }], described) + encoder.encode([{ id: 2, user: { public_id: 'u', email: 'e' } }]);
    assert.deepEqual(parse(text), [
      ['id', 'user.public_id', 'user.email', 'note', 'extra'],
      ['2', 'u', 'e', '', ''],
    ]);

    // the users list's item (what routes/users.ts declares): a manager's columns whether or not any row of the batch has one
    const columns = csvColumns([{ public_id: 'p', manager: null }], userSchema).map((column) => column.name);
    assert.ok(columns.includes('manager.public_id') && columns.includes('email'), columns.join(','));
  });

  it('write NDJSON as one JSON object a line, as the list returns it', () => {
    const encoder = rowEncoder('ndjson');
    const text = encoder.start(items) + encoder.encode(items);
    assert.deepEqual(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
      items,
    );
    assert.ok(text.endsWith('\n'));
  });

  it('write nothing for an empty list', () => {
    assert.equal(rowEncoder('csv').start([]), '');
    assert.equal(rowEncoder('ndjson').encode([]), '');
  });
});
