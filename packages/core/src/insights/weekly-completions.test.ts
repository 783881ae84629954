import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mondayOf, weekStarts, weeklyCompletions } from './weekly-completions.ts';

describe('completions per week', () => {
  it('starts a week on Monday (UTC), a Sunday belonging to the week before it', () => {
    assert.equal(mondayOf('2026-11-23'), '2026-11-23', 'a Monday is its own week');
    assert.equal(mondayOf('2026-11-28'), '2026-11-23', 'Saturday');
    assert.equal(mondayOf('2026-11-29'), '2026-11-23', 'Sunday');
    assert.equal(mondayOf('2026-11-30'), '2026-11-30');
    assert.equal(mondayOf('2027-01-01'), '2026-12-28', 'across a year');
    assert.equal(mondayOf('2024-03-01'), '2024-02-26', 'across a leap day');
  });

  it('shows twelve weeks, oldest first, the current week last', () => {
    const starts = weekStarts('2026-11-28');
    assert.equal(starts.length, 12);
    assert.equal(starts.at(-1), '2026-11-23');
    assert.equal(starts[0], '2026-09-07');
    for (let i = 1; i < starts.length; i++) assert.equal(Date.parse(starts[i]!) - Date.parse(starts[i - 1]!), 7 * 86_400_000);
  });

  it('folds days into their weeks, with every week present and nothing from outside them', () => {
    const answer = weeklyCompletions('2026-11-28', [
      { day: '2026-11-27', count: 2 },
      { day: '2026-11-23', count: 1 },
      { day: '2026-11-22', count: 5 },
      { day: '2026-09-07', count: 3 },
      { day: '2026-09-06', count: 100 },
    ]);
    assert.equal(answer.weeks.length, 12);
    assert.deepEqual(answer.weeks.at(-1), { week_start: '2026-11-23', count: 3 });
    assert.deepEqual(answer.weeks.at(-2), { week_start: '2026-11-16', count: 5 });
    assert.deepEqual(answer.weeks[0], { week_start: '2026-09-07', count: 3 });
    assert.equal(answer.weeks.filter((week) => week.count === 0).length, 9);
    assert.equal(answer.total, 11, 'the day before the first week is not counted');
  });
});
