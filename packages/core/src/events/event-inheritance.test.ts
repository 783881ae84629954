import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { parseInput } from '../shared/validation.ts';
import { createEventInput } from './event.ts';
import { inheritFromSeries, STANDALONE_DEFAULTS, type SeriesTemplate } from './event-inheritance.ts';

const series: SeriesTemplate = {
  settings: {
    location_id: 7,
    is_local: true,
    is_online: true,
    enrollment_limit: 10,
    wait_list_limit: 5,
    online_enrollment_limit: 100,
    online_wait_list_limit: 0,
    body_markdown: '# Agenda',
    external_link: 'https://example.com/series',
    external_link_description: 'Series page',
    cover_url: 'https://example.com/cover.png',
  },
  is_hidden: true,
  tags: ['weekly', 'live'],
  channelId: '7d1f8d4e-0b7e-4f0e-9a7b-1c2d3e4f5a6b',
  facilitators: [
    { userId: 1, role: 'organizer' },
    { userId: 2, role: 'presenter' },
  ],
  durationMinutes: 90,
};

/** A create body as the API parses it, so the tests see exactly what the service hands over. */
const body = (fields: Record<string, unknown> = {}) =>
  parseInput(createEventInput, { name: 'Session', timeslots: [{ starts_at: '2026-03-29T09:00:00Z' }], ...fields });

const overridable = [
  ['body_markdown', 'Own body'],
  ['location_id', 9],
  ['enrollment_limit', 3],
  ['wait_list_limit', 0],
  ['online_enrollment_limit', 0],
  ['online_wait_list_limit', 8],
  ['is_local', false],
  ['is_online', false],
  ['external_link', 'https://example.com/own'],
] as const;

describe('inheritFromSeries', () => {
  it('rule 1: takes every omitted field from the series', () => {
    const event = inheritFromSeries(body(), series);
    assert.deepEqual(event.settings, series.settings);
    assert.equal(event.is_hidden, true);
    assert.deepEqual(event.tags, ['weekly', 'live']);
  });

  it('rules 1 and 2: a sent value overrides each overridable field, one at a time', () => {
    for (const [field, value] of overridable) {
      const event = inheritFromSeries(body({ [field]: value }), series);
      assert.deepEqual(event.settings, { ...series.settings, [field]: value }, field);
    }
    assert.equal(inheritFromSeries(body({ is_hidden: false }), series).is_hidden, false);
    assert.deepEqual(inheritFromSeries(body({ tags: ['own'] }), series).tags, ['own']);
  });

  it('rule 1: null and [] are sent values too, and override', () => {
    const event = inheritFromSeries(body({ body_markdown: null, location_id: null, external_link: null, tags: [] }), series);
    assert.equal(event.settings.body_markdown, null);
    assert.equal(event.settings.location_id, null);
    assert.equal(event.settings.external_link, null);
    assert.deepEqual(event.tags, []);
    // tags: null reads as "none", like []
    assert.deepEqual(inheritFromSeries(body({ tags: null }), series).tags, []);
  });

  it('rule 3: the series duration fills timeslots without one; their own durations stand', () => {
    const event = inheritFromSeries(
      body({
        timeslots: [
          { starts_at: '2026-03-29T09:00:00Z' },
          { starts_at: '2026-03-30T09:00:00Z', duration: 'PT45M' },
          { starts_at: '2026-03-31T09:00:00Z', duration: null },
        ],
      }),
      series,
    );
    assert.deepEqual(
      event.timeslots.map((slot) => slot.duration_minutes),
      [90, 45, 90],
    );
  });

  it('rule 3: a timeslot with no duration and none to inherit is 422 on that timeslot', () => {
    const twoMissing = body({
      timeslots: [
        { starts_at: '2026-03-29T09:00:00Z' },
        { starts_at: '2026-03-30T09:00:00Z', duration: 'PT1H' },
        { starts_at: '2026-03-31T09:00:00Z' },
      ],
    });
    for (const template of [null, { ...series, durationMinutes: 0 }]) {
      assert.throws(
        () => inheritFromSeries(twoMissing, template),
        (error) => {
          assert.ok(error instanceof LecternError);
          assert.equal(error.code, 'validation_error');
          assert.deepEqual(Object.keys(error.fieldErrors!), ['timeslots.0.duration', 'timeslots.2.duration']);
          return true;
        },
      );
    }
  });

  it('rule 4: copies cover, channel, facilitators and external_link_description, with no way to override them on create', () => {
    const event = inheritFromSeries(body(), series);
    assert.equal(event.settings.cover_url, series.settings.cover_url);
    assert.equal(event.settings.external_link_description, 'Series page');
    assert.equal(event.channelId, series.channelId);
    assert.deepEqual(event.facilitators, series.facilitators);
    for (const field of ['cover_url', 'channel_id', 'external_link_description', 'facilitators']) {
      assert.throws(
        () => body({ [field]: null }),
        (error) => error instanceof LecternError && /copied from the event series/.test(error.fieldErrors![field]![0]!),
        field,
      );
    }
  });

  it('rule 5: the event holds copies, so changing the series afterwards cannot reach it', () => {
    const template: SeriesTemplate = structuredClone(series);
    const event = inheritFromSeries(body(), template);
    (template.tags as string[]).push('later');
    (template.facilitators as Array<{ userId: number; role: 'presenter' }>).push({ userId: 3, role: 'presenter' });
    template.settings.enrollment_limit = 99;
    assert.deepEqual(event.tags, ['weekly', 'live']);
    assert.equal(event.facilitators.length, 2);
    assert.equal(event.settings.enrollment_limit, 10);
  });

  it('without a series applies the standalone defaults the same way', () => {
    const event = inheritFromSeries(body({ timeslots: [{ starts_at: '2026-03-29T09:00:00Z', duration: 'PT1H' }], is_online: true }), null);
    assert.deepEqual(event.settings, { ...STANDALONE_DEFAULTS.settings, is_online: true });
    assert.deepEqual([event.tags, event.channelId, event.facilitators, event.is_hidden], [[], null, [], false]);
    assert.deepEqual(event.timeslots, [{ starts_at: '2026-03-29T09:00:00.000Z', duration_minutes: 60, rooms_info: '', watch_link: null }]);
  });
});
