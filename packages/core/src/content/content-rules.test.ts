import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { systemActor, type Actor } from '../auth/actor.ts';
import { grantedScopes } from '../auth/scopes.ts';
import { LecternError } from '../shared/errors.ts';
import { parseInput } from '../shared/validation.ts';
import { createContentInputs, typeViewOf, updateContentInputs, updateContentItemInput, type ContentRecord } from './content-item.ts';
import {
  assertDistinctIds,
  assertNoContainmentCycle,
  assertScheduleOrder,
  mediaStatusFor,
  nextTagSet,
  sameTagSet,
  viewerFor,
} from './content-rules.ts';

const fieldOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof LecternError);
    assert.equal(error.code, 'validation_error');
    return Object.keys(error.fieldErrors ?? {});
  }
  assert.fail('expected a validation error');
};

const actor = (role: 'admin' | 'organizer' | 'user'): Actor => ({
  kind: 'user',
  userId: 7,
  publicId: 'p',
  role,
  scopes: new Set(grantedScopes(role)),
});

describe('content rules', () => {
  it('limits only role user by visibility', () => {
    assert.deepEqual(viewerFor(actor('user')), { memberId: 7 });
    assert.deepEqual(viewerFor(actor('organizer')), { memberId: null });
    assert.deepEqual(viewerFor(actor('admin')), { memberId: null });
    assert.deepEqual(viewerFor(systemActor), { memberId: null });
  });

  it('adds, removes and replaces tag sets; names match exactly', () => {
    assert.deepEqual(nextTagSet(['a', 'b'], 'add', ['b', 'c', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(nextTagSet(['a', 'b'], 'remove', ['b', 'not-there']), ['a']);
    assert.deepEqual(nextTagSet(['a', 'b'], 'remove', ['A']), ['a', 'b']);
    assert.deepEqual(nextTagSet(['a', 'b'], 'replace', ['z', 'z']), ['z']);
    assert.deepEqual(nextTagSet(['a'], 'replace', []), []);
    assert.ok(sameTagSet(['a', 'b'], ['b', 'a']));
    assert.ok(!sameTagSet(['a'], ['a', 'b']));
  });

  it('keeps tag operations set-like for any input', () => {
    const names = fc.array(fc.constantFrom<string>('a', 'b', 'c', 'd', 'A'), { maxLength: 6 });
    fc.assert(
      fc.property(names, names, (current, given) => {
        const base = [...new Set(current)];
        const added = nextTagSet(base, 'add', given);
        assert.equal(new Set(added).size, added.length);
        assert.ok(given.every((name) => added.includes(name)) && base.every((name) => added.includes(name)));
        const removed = nextTagSet(base, 'remove', given);
        assert.ok(removed.every((name) => base.includes(name) && !given.includes(name)));
        assert.ok(sameTagSet(nextTagSet(base, 'replace', given), given));
      }),
    );
  });

  it('refuses repeated ids in a container', () => {
    assert.deepEqual(
      fieldOf(() => assertDistinctIds('items', ['x', 'y', 'x'])),
      ['items'],
    );
    assertDistinctIds('items', ['x', 'y']);
  });

  it('refuses a container holding itself, directly or through nested containers', () => {
    assert.deepEqual(
      fieldOf(() => assertNoContainmentCycle(1, [2, 1], [])),
      ['items'],
    );
    // 1 would hold 2; 2 holds 3; 3 holds 1 → cycle
    const edges = [
      { parentId: 2, itemId: 3 },
      { parentId: 3, itemId: 1 },
    ];
    assert.deepEqual(
      fieldOf(() => assertNoContainmentCycle(1, [2], edges)),
      ['items'],
    );
    // a shared sub-track (a diamond) is not a cycle
    assertNoContainmentCycle(
      1,
      [2, 4],
      [
        { parentId: 2, itemId: 5 },
        { parentId: 4, itemId: 5 },
      ],
    );
    // an existing cycle below that does not involve the parent still terminates
    assertNoContainmentCycle(
      1,
      [2],
      [
        { parentId: 2, itemId: 3 },
        { parentId: 3, itemId: 2 },
      ],
    );
  });

  it('orders scheduled track dates, either bound open', () => {
    assertScheduleOrder('2026-01-01', '2026-01-01');
    assertScheduleOrder(null, '2026-01-01');
    assertScheduleOrder('2026-01-01', null);
    assert.deepEqual(
      fieldOf(() => assertScheduleOrder('2026-01-02', '2026-01-01')),
      ['ends_on'],
    );
  });

  it('starts media processing when an asset is attached', () => {
    assert.equal(mediaStatusFor('asset-1'), 'processing');
    assert.equal(mediaStatusFor(null), 'none');
  });
});

describe('content write schemas', () => {
  it('requires name on every create and url on a link', () => {
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.article, {})),
      ['name'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.link, { name: 'x' })),
      ['url'],
    );
    assert.equal(parseInput(createContentInputs.link, { name: 'x', url: 'https://example.com/a' }).url, 'https://example.com/a');
  });

  it('accepts only the fields of the type, and every shared field', () => {
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.article, { name: 'x', url: 'https://e.com' })),
      ['url'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.video, { name: 'x', items: [] })),
      ['items'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.video, { name: 'x', media_status: 'ready' })),
      ['media_status'],
    );
    const shared = {
      name: 'x',
      description: 'd',
      tags: ['t'],
      channel_id: null,
      groups: [],
      is_hidden: true,
      is_self_assignable: false,
      is_completable: false,
      duration: 3,
    };
    for (const type of ['article', 'video', 'course', 'guide', 'track', 'scheduled_track', 'collection'] as const) {
      assert.deepEqual(parseInput(createContentInputs[type], shared), shared);
    }
    assert.deepEqual(parseInput(updateContentInputs.article, {}), {});
  });

  it('validates limits: tag length, negative duration, malformed ids, date formats', () => {
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.article, { name: 'x', tags: ['t'.repeat(101)] })),
      ['tags.0'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.article, { name: 'x', tags: ['  '] })),
      ['tags.0'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.article, { name: 'x', duration: -1 })),
      ['duration'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.article, { name: 'x', groups: ['nope'] })),
      ['groups.0'],
    );
    assert.deepEqual(
      fieldOf(() => parseInput(createContentInputs.scheduled_track, { name: 'x', starts_on: '2026-02-30' })),
      ['starts_on'],
    );
  });

  it('limits the generic PATCH to shared fields', () => {
    assert.deepEqual(
      fieldOf(() => parseInput(updateContentItemInput, { url: 'https://e.com' })),
      ['url'],
    );
    assert.deepEqual(parseInput(updateContentItemInput, { name: ' n ', groups: [] }), { name: 'n', groups: [] });
  });
});

describe('type views', () => {
  const record = (contentType: ContentRecord['contentType']): ContentRecord => ({
    id: 1,
    contentType,
    summary: { public_id: 'p', name: 'n', content_type: contentType } as ContentRecord['summary'],
    extras: {
      url: 'https://e.com',
      media_asset_id: null,
      media_status: 'none',
      media_duration: null,
      items: [],
      starts_on: null,
      ends_on: null,
    },
  });

  it('adds exactly the type-specific fields to the summary', () => {
    assert.deepEqual(Object.keys(typeViewOf(record('article'))), ['public_id', 'name', 'content_type']);
    assert.deepEqual(Object.keys(typeViewOf(record('link'))).slice(3), ['url']);
    assert.deepEqual(Object.keys(typeViewOf(record('video'))).slice(3), ['media_asset_id', 'media_status', 'media_duration']);
    assert.deepEqual(Object.keys(typeViewOf(record('scheduled_track'))).slice(3), ['items', 'starts_on', 'ends_on']);
    assert.deepEqual(Object.keys(typeViewOf(record('collection'))).slice(3), ['items']);
  });
});
