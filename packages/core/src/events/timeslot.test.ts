import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { parseInput } from '../shared/validation.ts';
import { createEventInput, updateEventInput } from './event.ts';
import { scheduleTimeslots, timeslotView, totalMinutes } from './timeslot.ts';

const slot = (starts_at: string, duration_minutes: number) => ({ starts_at, duration_minutes, rooms_info: '', watch_link: null });

describe('timeslot input', () => {
  const create = (timeslot: Record<string, unknown>) => parseInput(createEventInput, { name: 'E', timeslots: [timeslot] });

  it('reads ISO-8601 durations as minutes and normalises the wall clock', () => {
    for (const [duration, minutes] of [
      ['PT1H', 60],
      ['PT1H30M', 90],
      ['PT90M', 90],
      ['PT1.5H', 90],
      ['P1D', 1440],
    ] as const) {
      const parsed = create({ starts_at: '2026-03-29T09:00Z', duration });
      assert.equal(parsed.timeslots[0]!.duration, minutes, duration);
      assert.equal(parsed.timeslots[0]!.starts_at, '2026-03-29T09:00:00.000Z');
    }
  });

  it('rejects durations and start times that are not what the specification describes (422 on the timeslot field)', () => {
    for (const duration of ['1h', 'PT', 'P1M', 'PT0M', '-PT1H', 'PT90S', 'pt1h', 60]) {
      assert.throws(
        () => create({ starts_at: '2026-03-29T09:00:00Z', duration }),
        (e) => e instanceof LecternError && !!e.fieldErrors?.['timeslots.0.duration'],
        String(duration),
      );
    }
    for (const starts_at of ['2026-02-30T09:00:00Z', '2026-03-29T09:00:00+02:00', 'tomorrow', '2026-03-29']) {
      assert.throws(
        () => create({ starts_at, duration: 'PT1H' }),
        (e) => e instanceof LecternError && !!e.fieldErrors?.['timeslots.0.starts_at'],
        starts_at,
      );
    }
    assert.throws(
      () => create({ starts_at: '2026-03-29T09:00:00Z', ends_at: '2026-03-29T10:00:00Z' }),
      (e) => e instanceof LecternError && !!e.fieldErrors?.['timeslots.0.ends_at'],
    );
    assert.throws(
      () => parseInput(createEventInput, { name: 'E', timeslots: [] }),
      (e) => e instanceof LecternError && !!e.fieldErrors?.timeslots,
    );
  });

  it('requires a duration on PATCH, where nothing is inherited', () => {
    assert.throws(
      () => parseInput(updateEventInput, { timeslots: [{ starts_at: '2026-03-29T09:00:00Z' }] }),
      (e) => e instanceof LecternError && !!e.fieldErrors?.['timeslots.0.duration'],
    );
  });
});

describe('scheduleTimeslots', () => {
  it('computes ends and instants in the zone, and the span over all timeslots', () => {
    const { slots, span } = scheduleTimeslots(
      [slot('2026-07-02T14:00:00.000Z', 60), slot('2026-07-01T09:00:00.000Z', 90)],
      'Europe/Berlin',
    );
    assert.deepEqual(
      slots.map((s) => [s.ends_at, s.starts_at_utc, s.ends_at_utc]),
      [
        ['2026-07-02T15:00:00.000Z', '2026-07-02T12:00:00.000Z', '2026-07-02T13:00:00.000Z'],
        ['2026-07-01T10:30:00.000Z', '2026-07-01T07:00:00.000Z', '2026-07-01T08:30:00.000Z'],
      ],
    );
    assert.deepEqual(span, {
      starts_at: '2026-07-01T09:00:00.000Z',
      ends_at: '2026-07-02T15:00:00.000Z',
      starts_at_utc: '2026-07-01T07:00:00.000Z',
      ends_at_utc: '2026-07-02T13:00:00.000Z',
    });
    assert.equal(totalMinutes(slots), 150);
  });

  it('counts elapsed time across a DST change (Berlin, spring forward at 02:00 on 2026-03-29)', () => {
    const [night] = scheduleTimeslots([slot('2026-03-29T01:30:00.000Z', 120)], 'Europe/Berlin').slots;
    assert.deepEqual(
      [night!.starts_at_utc, night!.ends_at_utc, night!.ends_at],
      ['2026-03-29T00:30:00.000Z', '2026-03-29T02:30:00.000Z', '2026-03-29T04:30:00.000Z'],
    );
    // the same wall clock on either side of the change is a different UTC hour
    const { slots } = scheduleTimeslots([slot('2026-03-28T09:00:00.000Z', 60), slot('2026-03-30T09:00:00.000Z', 60)], 'Europe/Berlin');
    assert.deepEqual(
      slots.map((s) => s.starts_at_utc),
      ['2026-03-28T08:00:00.000Z', '2026-03-30T07:00:00.000Z'],
    );
  });

  it('without a zone reads the wall clock as UTC', () => {
    const [only] = scheduleTimeslots([slot('2026-03-29T01:30:00.000Z', 120)], null).slots;
    assert.deepEqual([only!.starts_at_utc, only!.ends_at], ['2026-03-29T01:30:00.000Z', '2026-03-29T03:30:00.000Z']);
  });

  it('writes the duration back in canonical form', () => {
    const [scheduled] = scheduleTimeslots([slot('2026-03-29T09:00:00.000Z', 90)], null).slots;
    assert.equal(timeslotView({ ...scheduled!, id: 4 }).duration, 'PT1H30M');
  });
});
