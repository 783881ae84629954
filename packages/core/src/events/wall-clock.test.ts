import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addMinutesWallClock,
  eventSpan,
  instantToWallClock,
  isValidTimeZone,
  parseWallClock,
  timeslotTimes,
  wallClockToInstant,
} from './wall-clock.ts';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';

describe('isValidTimeZone', () => {
  it('accepts IANA names, links and UTC', () => {
    for (const name of [
      'UTC',
      'Etc/UTC',
      'GMT',
      'Europe/Berlin',
      'America/New_York',
      'America/Argentina/Buenos_Aires',
      'America/Port-au-Prince',
      'Asia/Kathmandu',
      'Asia/Kolkata',
      'Etc/GMT+5',
      'US/Eastern',
      'europe/berlin',
    ]) {
      assert.equal(isValidTimeZone(name), true, name);
    }
  });

  it('rejects garbage, offsets and non-strings', () => {
    for (const name of [
      '',
      'Mars/Phobos',
      'Europe/Berlinn',
      ' UTC',
      'UTC ',
      '+01:00',
      '-05:00',
      'Z',
      'Europe//Berlin',
      '../etc',
      'a'.repeat(65),
      42,
      null,
      undefined,
      {},
    ]) {
      assert.equal(isValidTimeZone(name), false, String(name));
    }
  });
});

describe('parseWallClock', () => {
  it('normalises to milliseconds with Z', () => {
    assert.equal(parseWallClock('2026-03-29T02:30:00Z'), '2026-03-29T02:30:00.000Z');
    assert.equal(parseWallClock('2026-03-29T02:30Z'), '2026-03-29T02:30:00.000Z');
    assert.equal(parseWallClock('2026-03-29T02:30:00'), '2026-03-29T02:30:00.000Z');
    assert.equal(parseWallClock('2026-03-29T02:30:00+00:00'), '2026-03-29T02:30:00.000Z');
    assert.equal(parseWallClock('2026-03-29T02:30:00.5Z'), '2026-03-29T02:30:00.500Z');
    assert.equal(parseWallClock('2026-03-29T02:30:00.123456Z'), '2026-03-29T02:30:00.123Z');
  });

  it('rejects impossible times, other offsets and garbage', () => {
    for (const value of [
      '2026-02-30T10:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-01-01T10:00:60Z',
      '2026-01-01T10:00:00+01:00',
      '2026-01-01',
      '2026-01-01 10:00:00Z',
      '0999-01-01T10:00:00Z',
      'tomorrow',
      '',
    ]) {
      assert.equal(parseWallClock(value), null, value);
    }
    assert.equal(parseWallClock('2028-02-29T10:00:00Z'), '2028-02-29T10:00:00.000Z', 'leap day');
  });
});

describe('wallClockToInstant', () => {
  const cases: Array<[zone: string | null, wall: string, instant: string, why: string]> = [
    ['UTC', '2026-06-01T12:00:00Z', '2026-06-01T12:00:00.000Z', 'UTC is identity'],
    [null, '2026-06-01T12:00:00Z', '2026-06-01T12:00:00.000Z', 'no location means UTC'],
    [BERLIN, '2026-01-15T09:00:00Z', '2026-01-15T08:00:00.000Z', 'CET +1'],
    [BERLIN, '2026-07-15T09:00:00Z', '2026-07-15T07:00:00.000Z', 'CEST +2'],
    // 2026-03-29: at 01:00Z Berlin clocks jump from 02:00 to 03:00
    [BERLIN, '2026-03-29T01:59:00Z', '2026-03-29T00:59:00.000Z', 'last minute before the gap'],
    [BERLIN, '2026-03-29T02:00:00Z', '2026-03-29T01:00:00.000Z', 'gap start moves forward to 03:00'],
    [BERLIN, '2026-03-29T02:30:00Z', '2026-03-29T01:30:00.000Z', 'inside the gap moves forward by an hour'],
    [BERLIN, '2026-03-29T02:59:59Z', '2026-03-29T01:59:59.000Z', 'end of the gap'],
    [BERLIN, '2026-03-29T03:00:00Z', '2026-03-29T01:00:00.000Z', 'first real minute after the gap'],
    // 2026-10-25: at 01:00Z Berlin clocks fall back from 03:00 to 02:00
    [BERLIN, '2026-10-25T01:59:00Z', '2026-10-24T23:59:00.000Z', 'before the overlap'],
    [BERLIN, '2026-10-25T02:00:00Z', '2026-10-25T00:00:00.000Z', 'overlap start takes the earlier (CEST)'],
    [BERLIN, '2026-10-25T02:30:00Z', '2026-10-25T00:30:00.000Z', 'overlap takes the earlier (CEST)'],
    [BERLIN, '2026-10-25T03:00:00Z', '2026-10-25T02:00:00.000Z', 'after the overlap (CET)'],
    // 2026-03-08: at 07:00Z New York clocks jump from 02:00 EST to 03:00 EDT
    [NEW_YORK, '2026-03-08T01:59:00Z', '2026-03-08T06:59:00.000Z', 'before the gap (EST)'],
    [NEW_YORK, '2026-03-08T02:30:00Z', '2026-03-08T07:30:00.000Z', 'inside the gap moves forward to 03:30 EDT'],
    [NEW_YORK, '2026-03-08T03:00:00Z', '2026-03-08T07:00:00.000Z', 'after the gap (EDT)'],
    // 2026-11-01: at 06:00Z New York clocks fall back from 02:00 EDT to 01:00 EST
    [NEW_YORK, '2026-11-01T00:59:00Z', '2026-11-01T04:59:00.000Z', 'before the overlap'],
    [NEW_YORK, '2026-11-01T01:00:00Z', '2026-11-01T05:00:00.000Z', 'overlap start takes the earlier (EDT)'],
    [NEW_YORK, '2026-11-01T01:30:00Z', '2026-11-01T05:30:00.000Z', 'overlap takes the earlier (EDT)'],
    [NEW_YORK, '2026-11-01T02:00:00Z', '2026-11-01T07:00:00.000Z', 'after the overlap (EST)'],
    ['Asia/Kathmandu', '2026-03-01T12:00:00Z', '2026-03-01T06:15:00.000Z', '+05:45'],
    ['Australia/Lord_Howe', '2026-10-04T02:15:00Z', '2026-10-03T15:45:00.000Z', '30-minute gap moves forward by 30 minutes'],
    ['Pacific/Apia', '2011-12-30T12:00:00Z', '2011-12-30T22:00:00.000Z', 'the skipped day moves forward 24 hours'],
  ];
  for (const [zone, wall, instant, why] of cases) {
    it(`${zone ?? 'null'} ${wall} → ${instant} (${why})`, () => assert.equal(wallClockToInstant(wall, zone), instant));
  }

  it('keeps milliseconds', () => {
    assert.equal(wallClockToInstant('2026-07-15T09:00:00.250Z', BERLIN), '2026-07-15T07:00:00.250Z');
  });

  it('throws on an unknown zone or a malformed wall clock', () => {
    assert.throws(() => wallClockToInstant('2026-07-15T09:00:00Z', 'Mars/Phobos'), RangeError);
    assert.throws(() => wallClockToInstant('2026-07-15T09:00:00+02:00', BERLIN), RangeError);
  });
});

describe('instantToWallClock', () => {
  it('reads the zone’s clock, including both sides of each DST change', () => {
    const cases: Array<[string, string, string]> = [
      [BERLIN, '2026-03-29T00:59:59.000Z', '2026-03-29T01:59:59.000Z'],
      [BERLIN, '2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00.000Z'],
      [BERLIN, '2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00.000Z'],
      [BERLIN, '2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00.000Z'],
      [NEW_YORK, '2026-03-08T06:59:00.000Z', '2026-03-08T01:59:00.000Z'],
      [NEW_YORK, '2026-03-08T07:00:00.000Z', '2026-03-08T03:00:00.000Z'],
      [NEW_YORK, '2026-11-01T05:30:00.000Z', '2026-11-01T01:30:00.000Z'],
      [NEW_YORK, '2026-11-01T06:30:00.000Z', '2026-11-01T01:30:00.000Z'],
      ['UTC', '2026-01-01T00:00:00.123Z', '2026-01-01T00:00:00.123Z'],
    ];
    for (const [zone, instant, wall] of cases) assert.equal(instantToWallClock(instant, zone), wall, `${zone} ${instant}`);
  });

  it('accepts instants with an offset', () => {
    assert.equal(instantToWallClock('2026-07-15T09:00:00+02:00', BERLIN), '2026-07-15T09:00:00.000Z');
  });

  it('rejects a bare local time as an instant', () => {
    assert.throws(() => instantToWallClock('2026-07-15T09:00:00', BERLIN), RangeError);
    assert.throws(() => instantToWallClock('not a date', BERLIN), RangeError);
  });

  it('round-trips every quarter hour of both 2026 DST days except inside the gaps', () => {
    for (const [zone, day] of [
      [BERLIN, '2026-03-29'],
      [BERLIN, '2026-10-25'],
      [NEW_YORK, '2026-03-08'],
      [NEW_YORK, '2026-11-01'],
    ] as const) {
      let roundTripped = 0;
      for (let minute = 0; minute < 24 * 60; minute += 15) {
        const wall = `${day}T${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.000Z`;
        const back = instantToWallClock(wallClockToInstant(wall, zone), zone);
        if (back === wall) roundTripped++;
        else assert.equal(Date.parse(back) - Date.parse(wall), 3_600_000, `${zone} ${wall} moves forward by the gap`);
      }
      // spring-forward days lose the four quarter hours of the skipped hour; fall-back days lose none
      assert.equal(roundTripped, day.endsWith('-03-29') || day.endsWith('-03-08') ? 92 : 96, `${zone} ${day}`);
    }
  });
});

describe('addMinutesWallClock', () => {
  it('is plain addition in UTC (the default)', () => {
    assert.equal(addMinutesWallClock('2026-03-29T01:30:00Z', 90), '2026-03-29T03:00:00.000Z');
    assert.equal(addMinutesWallClock('2026-12-31T23:30:00Z', 60, null), '2027-01-01T00:30:00.000Z');
  });

  it('adds elapsed minutes across a spring-forward change', () => {
    // 01:30 CET + 60 real minutes = 03:30 CEST (02:30 never happens)
    assert.equal(addMinutesWallClock('2026-03-29T01:30:00Z', 60, BERLIN), '2026-03-29T03:30:00.000Z');
    assert.equal(addMinutesWallClock('2026-03-08T01:30:00Z', 60, NEW_YORK), '2026-03-08T03:30:00.000Z');
  });

  it('adds elapsed minutes across a fall-back change', () => {
    // 02:30 CEST (the earlier one) + 60 real minutes = 02:30 CET (the later one)
    assert.equal(addMinutesWallClock('2026-10-25T02:30:00Z', 60, BERLIN), '2026-10-25T02:30:00.000Z');
    assert.equal(addMinutesWallClock('2026-11-01T00:30:00Z', 120, NEW_YORK), '2026-11-01T01:30:00.000Z');
  });

  it('handles negative minutes and rejects non-numbers', () => {
    assert.equal(addMinutesWallClock('2026-06-01T10:00:00Z', -30, BERLIN), '2026-06-01T09:30:00.000Z');
    assert.throws(() => addMinutesWallClock('2026-06-01T10:00:00Z', Number.NaN), RangeError);
  });
});

describe('timeslotTimes', () => {
  it('computes a plain slot', () => {
    assert.deepEqual(timeslotTimes({ starts_at: '2026-06-01T09:00:00Z', duration_minutes: 90 }, BERLIN), {
      starts_at: '2026-06-01T09:00:00.000Z',
      ends_at: '2026-06-01T10:30:00.000Z',
      starts_at_utc: '2026-06-01T07:00:00.000Z',
      ends_at_utc: '2026-06-01T08:30:00.000Z',
    });
  });

  it('treats no location as UTC', () => {
    assert.deepEqual(timeslotTimes({ starts_at: '2026-06-01T09:00:00Z', duration_minutes: 60 }, null), {
      starts_at: '2026-06-01T09:00:00.000Z',
      ends_at: '2026-06-01T10:00:00.000Z',
      starts_at_utc: '2026-06-01T09:00:00.000Z',
      ends_at_utc: '2026-06-01T10:00:00.000Z',
    });
  });

  it('spans the Berlin spring-forward change: two real hours, three on the wall clock', () => {
    const slot = timeslotTimes({ starts_at: '2026-03-29T01:00:00Z', duration_minutes: 120 }, BERLIN);
    assert.deepEqual(slot, {
      starts_at: '2026-03-29T01:00:00.000Z',
      ends_at: '2026-03-29T04:00:00.000Z',
      starts_at_utc: '2026-03-29T00:00:00.000Z',
      ends_at_utc: '2026-03-29T02:00:00.000Z',
    });
  });

  it('spans the Berlin fall-back change: two real hours, one on the wall clock', () => {
    const slot = timeslotTimes({ starts_at: '2026-10-25T01:30:00Z', duration_minutes: 120 }, BERLIN);
    assert.deepEqual(slot, {
      starts_at: '2026-10-25T01:30:00.000Z',
      ends_at: '2026-10-25T02:30:00.000Z',
      starts_at_utc: '2026-10-24T23:30:00.000Z',
      ends_at_utc: '2026-10-25T01:30:00.000Z',
    });
  });

  it('spans the New York changes', () => {
    const spring = timeslotTimes({ starts_at: '2026-03-08T01:00:00Z', duration_minutes: 120 }, NEW_YORK);
    assert.deepEqual(
      [spring.ends_at, spring.starts_at_utc, spring.ends_at_utc],
      ['2026-03-08T04:00:00.000Z', '2026-03-08T06:00:00.000Z', '2026-03-08T08:00:00.000Z'],
    );
    const fall = timeslotTimes({ starts_at: '2026-11-01T00:30:00Z', duration_minutes: 180 }, NEW_YORK);
    assert.deepEqual(
      [fall.ends_at, fall.starts_at_utc, fall.ends_at_utc],
      ['2026-11-01T02:30:00.000Z', '2026-11-01T04:30:00.000Z', '2026-11-01T07:30:00.000Z'],
    );
  });

  it('a full day across a change ends at a different wall-clock hour', () => {
    const slot = timeslotTimes({ starts_at: '2026-03-28T12:00:00Z', duration_minutes: 1440 }, BERLIN);
    assert.equal(slot.ends_at, '2026-03-29T13:00:00.000Z');
  });

  it('normalises a start inside a gap so both forms name the same moment', () => {
    const slot = timeslotTimes({ starts_at: '2026-03-29T02:30:00Z', duration_minutes: 30 }, BERLIN);
    assert.deepEqual(slot, {
      starts_at: '2026-03-29T03:30:00.000Z',
      ends_at: '2026-03-29T04:00:00.000Z',
      starts_at_utc: '2026-03-29T01:30:00.000Z',
      ends_at_utc: '2026-03-29T02:00:00.000Z',
    });
  });

  it('rejects non-positive or fractional durations', () => {
    for (const duration_minutes of [0, -5, 1.5]) {
      assert.throws(() => timeslotTimes({ starts_at: '2026-06-01T09:00:00Z', duration_minutes }, BERLIN), RangeError);
    }
  });
});

describe('eventSpan', () => {
  it('takes the earliest start and the latest end, by instant', () => {
    const a = timeslotTimes({ starts_at: '2026-06-02T09:00:00Z', duration_minutes: 60 }, BERLIN);
    const b = timeslotTimes({ starts_at: '2026-06-01T14:00:00Z', duration_minutes: 30 }, BERLIN);
    const c = timeslotTimes({ starts_at: '2026-06-01T15:00:00Z', duration_minutes: 2000 }, BERLIN);
    assert.deepEqual(eventSpan([a, b, c]), {
      starts_at: b.starts_at,
      starts_at_utc: b.starts_at_utc,
      ends_at: c.ends_at,
      ends_at_utc: c.ends_at_utc,
    });
  });

  it('orders by instant inside a DST overlap, where wall clocks mislead', () => {
    // Berlin 2026-10-25: 02:50 CEST + 10 min ends at 02:00 CET (01:00Z), which is LATER than
    // 02:30 CEST + 15 min ending at 02:45 CEST (00:45Z), although its wall clock reads earlier.
    const endsAfterChange = timeslotTimes({ starts_at: '2026-10-25T02:50:00Z', duration_minutes: 10 }, BERLIN);
    const endsBeforeChange = timeslotTimes({ starts_at: '2026-10-25T02:30:00Z', duration_minutes: 15 }, BERLIN);
    assert.equal(endsAfterChange.ends_at, '2026-10-25T02:00:00.000Z');
    assert.equal(endsBeforeChange.ends_at, '2026-10-25T02:45:00.000Z');
    const span = eventSpan([endsAfterChange, endsBeforeChange]);
    assert.deepEqual(span, {
      starts_at: '2026-10-25T02:30:00.000Z',
      starts_at_utc: '2026-10-25T00:30:00.000Z',
      ends_at: '2026-10-25T02:00:00.000Z',
      ends_at_utc: '2026-10-25T01:00:00.000Z',
    });
  });

  it('needs at least one slot', () => {
    assert.throws(() => eventSpan([]), RangeError);
  });
});
