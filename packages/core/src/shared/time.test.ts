import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDate, parseDatetime, parseDatetimeBound } from './time.ts';

describe('date and datetime parsing', () => {
  it('accepts real calendar days only', () => {
    assert.equal(parseDate('2028-02-29'), '2028-02-29');
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-1', '20260101', '2026-01-01T00:00:00Z']) assert.equal(parseDate(bad), null, bad);
  });

  it('normalises datetimes to UTC with milliseconds', () => {
    const cases: Array<[string, string]> = [
      ['2026-01-31T09:00:00Z', '2026-01-31T09:00:00.000Z'],
      ['2026-01-31T09:00Z', '2026-01-31T09:00:00.000Z'],
      ['2026-01-31T09:00:00.5Z', '2026-01-31T09:00:00.500Z'],
      ['2026-01-31T09:00:00.123456Z', '2026-01-31T09:00:00.123Z'],
      ['2026-01-31T09:00:00', '2026-01-31T09:00:00.000Z'],
      ['2026-01-31T01:30:00-05:00', '2026-01-31T06:30:00.000Z'],
      ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000Z'],
    ];
    for (const [input, expected] of cases) assert.equal(parseDatetime(input), expected, input);
    for (const bad of ['2026-01-31', '2026-01-31T25:00:00Z', '2026-02-30T00:00:00Z', 'yesterday', '2026-01-31T09:00:00+5']) {
      assert.equal(parseDatetime(bad), null, bad);
    }
  });

  it('widens a bare date to the whole day for bounds', () => {
    assert.equal(parseDatetimeBound('2026-03-01', 'gte'), '2026-03-01T00:00:00.000Z');
    assert.equal(parseDatetimeBound('2026-03-01', 'lte'), '2026-03-01T23:59:59.999Z');
    assert.equal(parseDatetimeBound('2026-03-01T12:00:00Z', 'lte'), '2026-03-01T12:00:00.000Z');
  });
});
