import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allEventTypes, eventCatalog, expandEventPatterns, isEventType } from './event-catalog.ts';
import { contentTypeEventPrefix, isMediaContentType, mediaEventType } from '../content/content-events.ts';
import { contentTypes } from '../content/content-types.ts';

const lifecycle = (prefix: string) => ['created', 'updated', 'deleted', 'archived', 'unarchived'].map((a) => `${prefix}.${a}`);

const familyTypes = (family: string) => eventCatalog.data.find((f) => f.family === family)?.event_types.map((t) => t.name);

describe('content types', () => {
  it('lists the ten types of the specification, each its own event prefix', () => {
    assert.deepEqual(
      [...contentTypes],
      ['article', 'video', 'course', 'guide', 'event', 'event_type', 'link', 'track', 'scheduled_track', 'collection'],
    );
    for (const type of contentTypes) assert.equal(contentTypeEventPrefix[type], type);
  });

  it('names media events per content type', () => {
    assert.equal(mediaEventType('video', 'ready'), 'video.ready');
    assert.equal(mediaEventType('video', 'errored'), 'video.errored');
    assert.equal(mediaEventType('event', 'ready'), 'event.recording_ready');
    assert.equal(mediaEventType('event_type', 'errored'), 'event_type.recording_errored');
    assert.equal(isMediaContentType('video'), true);
    assert.equal(isMediaContentType('article'), false);
  });
});

describe('eventCatalog', () => {
  it('has the families in order: content_item, each type prefix, assignment, enrollment', () => {
    assert.deepEqual(
      eventCatalog.data.map((f) => f.family),
      ['content_item', ...contentTypes, 'assignment', 'enrollment'],
    );
  });

  it('gives every content family the five lifecycle events', () => {
    assert.deepEqual(familyTypes('content_item'), lifecycle('content_item'));
    for (const type of ['article', 'course', 'guide', 'link', 'track', 'scheduled_track', 'collection']) {
      assert.deepEqual(familyTypes(type), lifecycle(type));
    }
  });

  it('puts media events in their prefix family', () => {
    assert.deepEqual(familyTypes('video'), [...lifecycle('video'), 'video.ready', 'video.errored']);
    assert.deepEqual(familyTypes('event'), [...lifecycle('event'), 'event.recording_ready', 'event.recording_errored']);
    assert.deepEqual(familyTypes('event_type'), [...lifecycle('event_type'), 'event_type.recording_ready', 'event_type.recording_errored']);
  });

  it('lists assignment and enrollment events exactly as the specification does', () => {
    assert.deepEqual(familyTypes('assignment'), [
      'assignment.created',
      'assignment.updated',
      'assignment.completed',
      'assignment.dropped',
      'assignment.exempted',
      'assignment.completion_undone',
      'assignment.exemption_undone',
      'assignment.deleted',
    ]);
    assert.deepEqual(familyTypes('enrollment'), [
      'enrollment.enrolled',
      'enrollment.waitlisted',
      'enrollment.checked_in',
      'enrollment.checkin_undone',
      'enrollment.dropped',
    ]);
  });

  it('describes every family and type in one line, and every type sits in its own family', () => {
    for (const family of eventCatalog.data) {
      assert.match(family.description, /^[A-Z].*\.$/);
      assert.doesNotMatch(family.description, /\n/);
      for (const type of family.event_types) {
        assert.ok(type.name.startsWith(`${family.family}.`), type.name);
        assert.match(type.description, /^[A-Z][^\n]*\.$/);
      }
    }
  });

  it('serialises to the API shape', () => {
    const body = JSON.parse(JSON.stringify(eventCatalog));
    assert.deepEqual(Object.keys(body), ['data']);
    assert.deepEqual(Object.keys(body.data[0]), ['family', 'description', 'event_types']);
    assert.deepEqual(Object.keys(body.data[0].event_types[0]), ['name', 'description']);
    assert.deepEqual(body.data[0].event_types[0], { name: 'content_item.created', description: 'A content item of any type was created.' });
  });

  it('is frozen', () => {
    assert.throws(() => (eventCatalog.data as unknown[]).push({}), TypeError);
    assert.throws(() => {
      (eventCatalog.data[0] as { family: string }).family = 'x';
    }, TypeError);
    assert.throws(() => (eventCatalog.data[0]!.event_types as unknown[]).pop(), TypeError);
  });

  it('allEventTypes is every type once, in catalogue order', () => {
    assert.equal(allEventTypes.length, 5 + 10 * 5 + 6 + 8 + 5);
    assert.equal(new Set(allEventTypes).size, allEventTypes.length);
    assert.deepEqual(
      [...allEventTypes],
      eventCatalog.data.flatMap((f) => f.event_types.map((t) => t.name)),
    );
    assert.equal(isEventType('video.ready'), true);
    assert.equal(isEventType('webhook.ping'), false);
  });
});

describe('expandEventPatterns', () => {
  it('keeps explicit names', () => {
    assert.deepEqual(expandEventPatterns(['article.created']), { events: ['article.created'] });
  });

  it('expands video.* to lifecycle and media events', () => {
    assert.deepEqual(expandEventPatterns(['video.*']), { events: familyTypes('video') });
  });

  it('expands event.* and event_type.* separately', () => {
    const events = expandEventPatterns(['event.*']);
    assert.ok('events' in events);
    assert.ok(events.events.includes('event.recording_ready'));
    assert.ok(!events.events.some((e) => e.startsWith('event_type.')));
    assert.deepEqual(expandEventPatterns(['event_type.*']), { events: familyTypes('event_type') });
  });

  it('de-duplicates and returns catalogue order whatever the input order', () => {
    const patterns = ['enrollment.dropped', 'assignment.*', 'content_item.created', 'assignment.completed', 'enrollment.dropped'];
    assert.deepEqual(expandEventPatterns(patterns), {
      events: ['content_item.created', ...familyTypes('assignment')!, 'enrollment.dropped'],
    });
  });

  it('rejects an empty list', () => {
    assert.deepEqual(expandEventPatterns([]), { errors: ['At least one event type is required.'] });
  });

  it('rejects the catch-all and other wildcard shapes', () => {
    for (const pattern of ['*', '*.created', 'vid*.created', 'video.*.*', '*.*']) {
      const result = expandEventPatterns([pattern]);
      assert.ok('errors' in result, pattern);
      assert.equal(result.errors.length, 1);
    }
    const all = expandEventPatterns(['*']);
    assert.ok('errors' in all && /catch-all/.test(all.errors[0]!));
  });

  it('lists every unknown name and family, once each', () => {
    const patterns = ['video.created', 'video.exploded', 'podcast.*', 'video.exploded', 'webhook.ping', 'Video.created', ''];
    assert.deepEqual(expandEventPatterns(patterns), {
      errors: [
        "Unknown event type 'video.exploded'.",
        "Unknown event family 'podcast'.",
        "Unknown event type 'webhook.ping'.",
        "Unknown event type 'Video.created'.",
        "Unknown event type ''.",
      ],
    });
  });

  it('rejects a bare family name without the wildcard', () => {
    assert.deepEqual(expandEventPatterns(['video']), { errors: ["Unknown event type 'video'."] });
  });

  it('expands every family to exactly its catalogue types', () => {
    for (const family of eventCatalog.data) {
      assert.deepEqual(expandEventPatterns([`${family.family}.*`]), { events: family.event_types.map((t) => t.name) });
    }
    const everything = expandEventPatterns(eventCatalog.data.map((f) => `${f.family}.*`));
    assert.deepEqual(everything, { events: [...allEventTypes] });
  });
});
