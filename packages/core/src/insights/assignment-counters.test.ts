import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { counterDeltas, countedFacts, mergeCounterDeltas, type CountedColumns, type CountedFacts } from './assignment-counters.ts';

const columns = (overrides: Partial<CountedColumns> = {}): CountedColumns => ({
  userId: 3,
  contentId: 7,
  contentType: 'video',
  state: 'in_progress',
  feedbackRating: null,
  isSuccess: null,
  feedbackText: null,
  dueDate: null,
  created: '2026-01-05T10:00:00.000Z',
  deleted: false,
  ...overrides,
});
const facts = (overrides: Partial<CountedColumns> = {}) => countedFacts(columns(overrides))!;

describe('assignment counters', () => {
  it('reads the facts from the columns: unrated is 0, success 1/0/2, reviewed when text was left', () => {
    assert.deepEqual(facts(), {
      userId: 3,
      contentId: 7,
      contentType: 'video',
      state: 'in_progress',
      rating: 0,
      success: 2,
      reviewed: 0,
      dueDate: null,
      createdDay: '2026-01-05',
    });
    assert.deepEqual(facts({ feedbackRating: 4, isSuccess: true, feedbackText: 'Good', dueDate: '2026-01-31' }), {
      userId: 3,
      contentId: 7,
      contentType: 'video',
      state: 'in_progress',
      rating: 4,
      success: 1,
      reviewed: 1,
      dueDate: '2026-01-31',
      createdDay: '2026-01-05',
    });
    assert.equal(facts({ isSuccess: false }).success, 0);
    assert.equal(facts({ feedbackText: '' }).reviewed, 0);
    assert.equal(countedFacts(columns({ deleted: true })), null, 'a deleted assignment counts nowhere');
  });

  it('counts a new assignment once, in its combination and its content item', () => {
    assert.deepEqual(counterDeltas(null, facts()), {
      stats: [{ facts: facts(), by: 1 }],
      content: [{ contentId: 7, total: 1, completed: 0, ratingSum: 0, ratingCount: 0 }],
      due: [],
      users: [{ userId: 3, by: 1 }],
      created: [{ facts: { createdDay: '2026-01-05', state: 'in_progress' }, by: 1 }],
    });
  });

  it('changes nothing when the counted facts stay the same', () => {
    assert.deepEqual(counterDeltas(facts(), facts()), { stats: [], content: [], due: [], users: [], created: [] });
    assert.deepEqual(counterDeltas(null, null), { stats: [], content: [], due: [], users: [], created: [] });
    const due = facts({ dueDate: '2026-01-31' });
    assert.deepEqual(counterDeltas(due, due), { stats: [], content: [], due: [], users: [], created: [] });
  });

  it('moves a completion and a rating between combinations; the item total stays', () => {
    const after = facts({ state: 'completed', feedbackRating: 5 });
    assert.deepEqual(counterDeltas(facts(), after), {
      stats: [
        { facts: facts(), by: -1 },
        { facts: after, by: 1 },
      ],
      content: [{ contentId: 7, total: 0, completed: 1, ratingSum: 5, ratingCount: 1 }],
      due: [],
      users: [],
      created: [
        { facts: { createdDay: '2026-01-05', state: 'in_progress' }, by: -1 },
        { facts: { createdDay: '2026-01-05', state: 'completed' }, by: 1 },
      ],
    });
  });

  it('takes a dropped assignment out of the ratings, and a deleted one out of everything', () => {
    const rated = facts({ feedbackRating: 3 });
    assert.deepEqual(counterDeltas(rated, facts({ state: 'dropped', feedbackRating: 3 })).content, [
      { contentId: 7, total: 0, completed: 0, ratingSum: -3, ratingCount: -1 },
    ]);
    assert.deepEqual(counterDeltas(rated, null).content, [{ contentId: 7, total: -1, completed: 0, ratingSum: -3, ratingCount: -1 }]);
  });

  it('records a change of combination without a content change (feedback text, success)', () => {
    const reviewed = facts({ feedbackText: 'Useful', isSuccess: false });
    const deltas = counterDeltas(facts(), reviewed);
    assert.equal(deltas.stats.length, 2);
    assert.deepEqual(deltas.content, [], "the item's counters do not depend on review or success");
  });

  it('moves an assignment between content items: out of one, into the other', () => {
    const other: CountedFacts = { ...facts({ state: 'completed' }), contentId: 8 };
    assert.deepEqual(counterDeltas(facts({ state: 'completed' }), other).content, [
      { contentId: 7, total: -1, completed: -1, ratingSum: 0, ratingCount: 0 },
      { contentId: 8, total: 1, completed: 1, ratingSum: 0, ratingCount: 0 },
    ]);
  });

  it('counts outstanding assignments with a due date by type, state and day, and nothing else', () => {
    const due = (state: CountedColumns['state'], dueDate = '2026-01-31') => ({ contentType: 'video', state, dueDate });
    assert.deepEqual(counterDeltas(null, facts({ state: 'not_started', dueDate: '2026-01-31' })).due, [
      { facts: due('not_started'), by: 1 },
    ]);
    assert.deepEqual(counterDeltas(null, facts({ dueDate: null })).due, [], 'no due date, never overdue');
    assert.deepEqual(counterDeltas(null, facts({ state: 'completed', dueDate: '2026-01-31' })).due, [], 'done, never overdue');
    assert.deepEqual(counterDeltas(facts({ dueDate: '2026-01-31' }), facts({ dueDate: '2026-01-31', state: 'completed' })).due, [
      { facts: due('in_progress'), by: -1 },
    ]);
    assert.deepEqual(counterDeltas(facts({ dueDate: '2026-01-31' }), facts({ dueDate: '2026-02-28' })), {
      stats: [],
      content: [],
      users: [],
      created: [],
      due: [
        { facts: due('in_progress'), by: -1 },
        { facts: due('in_progress', '2026-02-28'), by: 1 },
      ],
    });
    assert.deepEqual(counterDeltas(facts({ dueDate: '2026-01-31', feedbackRating: 2 }), null).due, [{ facts: due('in_progress'), by: -1 }]);
  });

  it("counts a user's live assignments: in on insert, out on delete, unchanged by every other write", () => {
    assert.deepEqual(counterDeltas(facts({ state: 'completed' }), null).users, [{ userId: 3, by: -1 }]);
    assert.deepEqual(counterDeltas(facts(), facts({ state: 'dropped', feedbackRating: 2 })).users, []);
  });

  it('counts live assignments per day of creation and state: moved by a change of state, out on delete', () => {
    assert.deepEqual(counterDeltas(facts(), facts({ state: 'completed' })).created, [
      { facts: { createdDay: '2026-01-05', state: 'in_progress' }, by: -1 },
      { facts: { createdDay: '2026-01-05', state: 'completed' }, by: 1 },
    ]);
    assert.deepEqual(counterDeltas(facts(), null).created, [{ facts: { createdDay: '2026-01-05', state: 'in_progress' }, by: -1 }]);
    assert.deepEqual(counterDeltas(facts(), facts({ feedbackRating: 4, dueDate: '2026-03-01' })).created, [], 'same day and state');
    assert.deepEqual(facts({ created: '2026-01-05T23:59:59.999Z' }).createdDay, '2026-01-05');
  });

  it('merges many writes into one change per combination, content item and user, dropping what cancels out', () => {
    const created = [
      counterDeltas(null, facts({ userId: 1, dueDate: '2026-01-31' })),
      counterDeltas(null, facts({ userId: 1, dueDate: '2026-01-31' })),
      counterDeltas(null, facts({ userId: 2, contentId: 8 })),
    ];
    const merged = mergeCounterDeltas(created);
    assert.deepEqual(merged.users, [
      { userId: 1, by: 2 },
      { userId: 2, by: 1 },
    ]);
    assert.deepEqual(
      merged.stats.map((entry) => [entry.facts.contentId, entry.by]),
      [
        [7, 2],
        [8, 1],
      ],
    );
    assert.deepEqual(merged.due, [{ facts: { contentType: 'video', state: 'in_progress', dueDate: '2026-01-31' }, by: 2 }]);
    assert.deepEqual(merged.created, [{ facts: { createdDay: '2026-01-05', state: 'in_progress' }, by: 3 }]);
    assert.deepEqual(merged.content, [
      { contentId: 7, total: 2, completed: 0, ratingSum: 0, ratingCount: 0 },
      { contentId: 8, total: 1, completed: 0, ratingSum: 0, ratingCount: 0 },
    ]);
    const undone = mergeCounterDeltas([counterDeltas(null, facts()), counterDeltas(facts(), null)]);
    assert.deepEqual(undone, { stats: [], content: [], due: [], users: [], created: [] });
    // the sum of the merged counts equals the sum of the writes' counts, combination by combination
    const single = created.flatMap((deltas) => deltas.stats).reduce((sum, entry) => sum + entry.by, 0);
    assert.equal(
      merged.stats.reduce((sum, entry) => sum + entry.by, 0),
      single,
    );
  });
});
