import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_TIMESLOT_MINUTES, formatDurationMinutes, parseIsoDuration, parseTimeslotDuration } from './iso-duration.ts';

const seconds = (value: string) => {
  const result = parseIsoDuration(value);
  assert.ok(result.ok, `${value}: ${result.ok ? '' : result.reason}`);
  return result.value;
};
const rejects = (value: string, reason?: RegExp) => {
  const result = parseIsoDuration(value);
  assert.equal(result.ok, false, `${value} should be rejected`);
  if (!result.ok && reason) assert.match(result.reason, reason, value);
};

describe('parseIsoDuration (seconds)', () => {
  const accepted: Array<[string, number]> = [
    ['PT1H', 3600],
    ['PT1H30M', 5400],
    ['PT90M', 5400],
    ['PT45M', 2700],
    ['PT30S', 30],
    ['PT1H0M0S', 3600],
    ['PT3600S', 3600],
    ['P1D', 86_400],
    ['P1DT2H', 93_600],
    ['P1W', 604_800],
    ['P1W2D', 777_600],
    ['P2W', 1_209_600],
    ['PT1.5H', 5400],
    ['PT1,5H', 5400],
    ['PT0.25H', 900],
    ['PT1H1.5M', 3690],
    ['PT0.5M', 30],
    ['PT0S', 0],
    ['PT0M', 0],
    ['PT01H', 3600],
    ['P0D', 0],
  ];
  for (const [value, want] of accepted) {
    it(`${value} = ${want}s`, () => assert.equal(seconds(value), want));
  }

  it('uses exact arithmetic for fractions', () => {
    assert.equal(seconds('PT0.1H'), 360);
    assert.equal(seconds('PT0.7H'), 2520);
    assert.equal(seconds('P0.5D'), 43_200);
  });

  it('rejects empty forms', () => {
    rejects('', /ISO-8601/);
    rejects('P', /at least one/);
    rejects('PT', /at least one/);
    rejects('P1DT', /followed by/);
  });

  it('rejects signs', () => {
    rejects('-PT1H', /sign/);
    rejects('+PT1H', /sign/);
    rejects('PT-1H');
  });

  it('rejects years and months, which have no fixed length', () => {
    rejects('P1Y', /years/);
    rejects('P1M', /months/);
    rejects('P1Y2M3D', /years/);
    rejects('P0Y', /years/);
  });

  it('rejects garbage, wrong order, lower case and whitespace', () => {
    for (const value of [
      '1H',
      'PT1H ',
      ' PT1H',
      'pt1h',
      'PT1h',
      'PT1M1H',
      'P1DT1H1H',
      'PTH',
      'PT.5H',
      'PT1.H',
      'T1H',
      'P1H',
      'PT1D',
      '60',
      'PT1H30',
      'P1D2W',
      'PT1e3S',
      'PT1_000S',
    ]) {
      rejects(value);
    }
  });

  it('allows a fraction only on the last component', () => {
    rejects('PT1.5H30M', /last component/);
    rejects('P1.5DT1H', /last component/);
  });

  it('rejects fractions of a second', () => {
    rejects('PT1.5S', /whole number of seconds/);
    rejects('PT0.001M', /whole number of seconds/);
  });

  it('rejects absurdly long values instead of losing precision', () => {
    rejects(`PT${'9'.repeat(30)}S`, /too long/);
  });

  it('rejects non-strings without throwing', () => {
    assert.equal(parseIsoDuration(42 as unknown as string).ok, false);
  });
});

describe('parseTimeslotDuration (minutes)', () => {
  const minutes = (value: string) => {
    const result = parseTimeslotDuration(value);
    assert.ok(result.ok, `${value}: ${result.ok ? '' : result.reason}`);
    return result.value;
  };

  it('parses the spec forms', () => {
    assert.equal(minutes('PT1H'), 60);
    assert.equal(minutes('PT1H30M'), 90);
    assert.equal(minutes('PT90M'), 90);
    assert.equal(minutes('PT45M'), 45);
    assert.equal(minutes('P1D'), 1440);
    assert.equal(minutes('P1DT2H'), 1560);
    assert.equal(minutes('PT1.5H'), 90);
    assert.equal(minutes('PT120S'), 2);
    assert.equal(minutes('P1W'), 10_080);
  });

  it('requires a positive, whole number of minutes', () => {
    for (const [value, reason] of [
      ['PT0M', /longer than zero/],
      ['PT0S', /longer than zero/],
      ['PT90S', /whole number of minutes/],
      ['PT0.5M', /whole number of minutes/],
    ] as const) {
      const result = parseTimeslotDuration(value);
      assert.equal(result.ok, false, value);
      if (!result.ok) assert.match(result.reason, reason);
    }
  });

  it('caps at a year', () => {
    assert.equal(minutes('P366D'), MAX_TIMESLOT_MINUTES);
    assert.equal(parseTimeslotDuration('P367D').ok, false);
    assert.equal(parseTimeslotDuration('P53W').ok, false);
  });

  it('passes through the parser’s reasons', () => {
    const result = parseTimeslotDuration('P1M');
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.reason, /months/);
  });
});

describe('formatDurationMinutes', () => {
  const cases: Array<[number, string]> = [
    [0, 'PT0M'],
    [1, 'PT1M'],
    [45, 'PT45M'],
    [60, 'PT1H'],
    [90, 'PT1H30M'],
    [1440, 'PT24H'],
    [1560, 'PT26H'],
    [10_080, 'PT168H'],
  ];
  for (const [value, want] of cases) it(`${value} → ${want}`, () => assert.equal(formatDurationMinutes(value), want));

  it('round-trips through parseTimeslotDuration', () => {
    for (let m = 1; m <= 3000; m += 7) {
      const parsed = parseTimeslotDuration(formatDurationMinutes(m));
      assert.deepEqual(parsed, { ok: true, value: m });
    }
  });

  it('rejects negative and fractional minutes', () => {
    assert.throws(() => formatDurationMinutes(-1), RangeError);
    assert.throws(() => formatDurationMinutes(1.5), RangeError);
    assert.throws(() => formatDurationMinutes(Number.NaN), RangeError);
  });
});
