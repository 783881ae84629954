import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import {
  applyAction,
  applyProgress,
  assignmentActions,
  assignmentStates,
  canTransition,
  conflictFor,
  initialLifecycle,
  isOutstanding,
  isOverdue,
  transition,
  type AssignmentAction,
  type AssignmentLifecycle,
  type AssignmentState,
} from './assignment-machine.ts';

// Written out by hand from the spec's state table, its 409 table and docs/assignments.md, deliberately
// not derived from the implementation's table: 'x → y (event)' is allowed, a bare code is a 409.
type Expected = { next: AssignmentState; event: string; stamps: Record<string, string> } | { code: string };
const ok = (next: AssignmentState, event: string, stamps: Record<string, string> = {}): Expected => ({ next, event, stamps });
const fail = (code: string): Expected => ({ code });

// an open assignment, not started or in progress: the spec gives both states the same row
const open: Record<AssignmentAction, Expected> = {
  complete: ok('completed', 'assignment.completed', { completed_datetime: 'set' }),
  drop: ok('dropped', 'assignment.dropped', { dropped_at: 'set' }),
  exempt: ok('exempted', 'assignment.exempted', { exempted_at: 'set' }),
  'undo-complete': fail('not_completed'),
  'undo-exempt': fail('not_exempted'),
  progress: ok('in_progress', 'assignment.updated', { started_at: 'set_if_null' }),
};

const expected: Record<AssignmentState, Record<AssignmentAction, Expected>> = {
  not_started: open,
  in_progress: open,
  completed: {
    complete: fail('already_completed'),
    drop: fail('already_completed'),
    exempt: fail('not_outstanding'),
    'undo-complete': ok('in_progress', 'assignment.completion_undone', { completed_datetime: 'clear' }),
    'undo-exempt': fail('not_exempted'),
    progress: fail('already_completed'),
  },
  dropped: {
    complete: fail('dropped'),
    drop: fail('dropped'),
    exempt: fail('not_outstanding'),
    'undo-complete': fail('not_completed'),
    'undo-exempt': fail('not_exempted'),
    progress: fail('dropped'),
  },
  exempted: {
    complete: ok('completed', 'assignment.completed', { completed_datetime: 'set', exempted_at: 'clear' }),
    drop: ok('dropped', 'assignment.dropped', { dropped_at: 'set', exempted_at: 'clear' }),
    exempt: fail('not_outstanding'),
    'undo-complete': fail('not_completed'),
    'undo-exempt': ok('in_progress', 'assignment.exemption_undone', { exempted_at: 'clear' }),
    progress: ok('exempted', 'assignment.updated', { started_at: 'set_if_null' }),
  },
};

describe('assignment transition table', () => {
  it('covers exactly the 5 states × 6 actions', () => {
    assert.deepEqual([...assignmentStates].sort(), Object.keys(expected).sort());
    for (const state of assignmentStates) assert.deepEqual([...assignmentActions].sort(), Object.keys(expected[state]).sort());
  });

  for (const state of assignmentStates) {
    for (const action of assignmentActions) {
      const want = expected[state][action];
      const label = 'code' in want ? `409 ${want.code}` : `${want.next} (${want.event})`;
      it(`${state} + ${action} → ${label}`, () => {
        if ('code' in want) {
          assert.equal(conflictFor(state, action), want.code);
          assert.equal(canTransition(state, action), false);
          assert.throws(
            () => transition(state, action),
            (error: unknown) => {
              assert.ok(error instanceof LecternError);
              assert.equal(error.code, want.code);
              assert.match(error.message, new RegExp(`state is ${state}`));
              return true;
            },
          );
        } else {
          assert.equal(conflictFor(state, action), null);
          assert.equal(canTransition(state, action), true);
          const result = transition(state, action);
          assert.deepEqual(
            { next: result.next, event: result.event, stamps: { ...result.stamps } },
            { next: want.next, event: want.event, stamps: want.stamps },
          );
          assert.equal(result.ok, true);
          assert.equal(result.from, state);
          assert.equal(result.action, action);
        }
      });
    }
  }

  it('gives helpful conflict messages', () => {
    assert.throws(() => transition('completed', 'drop'), /undo the completion first/);
    assert.throws(() => transition('dropped', 'exempt'), /outstanding/);
  });
});

describe('isOutstanding / isOverdue', () => {
  it('only not_started and in_progress are outstanding', () => {
    assert.deepEqual(
      assignmentStates.filter((s) => isOutstanding(s)),
      ['not_started', 'in_progress'],
    );
  });

  it('is overdue only when due strictly before today on an outstanding assignment', () => {
    const today = '2026-05-10';
    assert.equal(isOverdue({ state: 'not_started', due_date: '2026-05-09' }, today), true);
    assert.equal(isOverdue({ state: 'in_progress', due_date: '2025-12-31' }, today), true);
    assert.equal(isOverdue({ state: 'in_progress', due_date: '2026-05-10' }, today), false, 'due today is not overdue');
    assert.equal(isOverdue({ state: 'not_started', due_date: '2026-05-11' }, today), false);
    assert.equal(isOverdue({ state: 'not_started', due_date: null }, today), false);
    for (const state of ['completed', 'dropped', 'exempted'] as const) {
      assert.equal(isOverdue({ state, due_date: '2020-01-01' }, today), false, state);
    }
  });
});

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const T2 = '2026-01-03T00:00:00.000Z';

const fresh = (): AssignmentLifecycle => ({ ...initialLifecycle });

describe('applyAction', () => {
  it('complete sets completed_datetime and progress 1, undo-complete restores the earlier progress', () => {
    const started = applyProgress(fresh(), { progress: 0.4 }, { now: T0, isCompletable: true }).next;
    const completed = applyAction(started, 'complete', T1);
    assert.equal(completed.event, 'assignment.completed');
    assert.deepEqual(completed.next, {
      state: 'completed',
      progress: 1,
      started_at: T0,
      completed_datetime: T1,
      dropped_at: null,
      exempted_at: null,
      progress_before_completion: 0.4,
    });
    const reopened = applyAction(completed.next, 'undo-complete', T2);
    assert.equal(reopened.event, 'assignment.completion_undone');
    assert.deepEqual(reopened.next, { ...started, state: 'in_progress', progress: 0.4, progress_before_completion: null });
  });

  it('undo-complete falls back to progress 0 when nothing was recorded', () => {
    const row: AssignmentLifecycle = { ...fresh(), state: 'completed', progress: 1, completed_datetime: T0 };
    assert.equal(applyAction(row, 'undo-complete', T1).next.progress, 0);
  });

  it('exempt then undo-exempt lands in in_progress and clears exempted_at without inventing started_at', () => {
    const exempted = applyAction(fresh(), 'exempt', T0);
    assert.equal(exempted.next.exempted_at, T0);
    const back = applyAction(exempted.next, 'undo-exempt', T1);
    assert.equal(back.next.state, 'in_progress');
    assert.equal(back.next.exempted_at, null);
    assert.equal(back.next.started_at, null);
  });

  it('completing or dropping an exempted assignment clears exempted_at', () => {
    const exempted = applyAction(fresh(), 'exempt', T0).next;
    assert.deepEqual(
      [applyAction(exempted, 'complete', T1).next.exempted_at, applyAction(exempted, 'drop', T1).next.exempted_at],
      [null, null],
    );
  });

  it('drop sets dropped_at and keeps progress', () => {
    const started = applyProgress(fresh(), { progress: 0.3 }, { now: T0, isCompletable: true }).next;
    const dropped = applyAction(started, 'drop', T1);
    assert.deepEqual(dropped.next, { ...started, state: 'dropped', dropped_at: T1 });
    assert.equal(dropped.event, 'assignment.dropped');
  });

  it('throws the table’s 409 and leaves the input untouched', () => {
    const row = { ...fresh(), state: 'dropped' as const, dropped_at: T0 };
    const copy = structuredClone(row);
    assert.throws(() => applyAction(row, 'complete', T1), { code: 'dropped' });
    assert.deepEqual(row, copy);
  });
});

describe('applyProgress', () => {
  it('moves not_started to in_progress, sets started_at once and emits assignment.updated', () => {
    const first = applyProgress(fresh(), { progress: 0.2 }, { now: T0, isCompletable: true });
    assert.equal(first.event, 'assignment.updated');
    assert.equal(first.next.state, 'in_progress');
    assert.equal(first.next.started_at, T0);
    const second = applyProgress(first.next, { progress: 0.1 }, { now: T1, isCompletable: true });
    assert.equal(second.next.started_at, T0, 'first engagement is kept');
    assert.equal(second.next.progress, 0.1, 'stored as reported');
  });

  it('auto-completes at 1.0 on completable content, remembering the pre-report progress', () => {
    const started = applyProgress(fresh(), { progress: 0.6 }, { now: T0, isCompletable: true }).next;
    const done = applyProgress(started, { progress: 1 }, { now: T1, isCompletable: true });
    assert.equal(done.event, 'assignment.completed');
    assert.equal(done.next.state, 'completed');
    assert.equal(done.next.completed_datetime, T1);
    assert.equal(done.next.progress, 1);
    assert.equal(done.next.progress_before_completion, 0.6);
  });

  it('auto-completes straight from not_started, setting started_at too', () => {
    const done = applyProgress(fresh(), { progress: 1 }, { now: T0, isCompletable: true });
    assert.deepEqual(
      [done.next.state, done.next.started_at, done.next.completed_datetime, done.next.progress_before_completion],
      ['completed', T0, T0, 0],
    );
  });

  it('does not auto-complete non-completable content', () => {
    const result = applyProgress(fresh(), { progress: 1 }, { now: T0, isCompletable: false });
    assert.equal(result.next.state, 'in_progress');
    assert.equal(result.next.progress, 1);
    assert.equal(result.event, 'assignment.updated');
  });

  it('keeps an exempted assignment exempted, but 1.0 completes it', () => {
    const exempted = applyAction(fresh(), 'exempt', T0).next;
    const partial = applyProgress(exempted, { progress: 0.5 }, { now: T1, isCompletable: true });
    assert.deepEqual([partial.next.state, partial.next.started_at, partial.next.exempted_at], ['exempted', T1, T0]);
    const full = applyProgress(exempted, { progress: 1 }, { now: T1, isCompletable: true });
    assert.deepEqual([full.next.state, full.next.exempted_at, full.event], ['completed', null, 'assignment.completed']);
  });

  it('is 409 on dropped and completed', () => {
    assert.throws(() => applyProgress({ ...fresh(), state: 'dropped' }, { progress: 0.5 }, { now: T0, isCompletable: true }), {
      code: 'dropped',
    });
    assert.throws(() => applyProgress({ ...fresh(), state: 'completed' }, { progress: 0.5 }, { now: T0, isCompletable: true }), {
      code: 'already_completed',
    });
  });

  it('is 422 on progress outside 0..1', () => {
    for (const progress of [-0.1, 1.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(
        () => applyProgress(fresh(), { progress }, { now: T0, isCompletable: true }),
        (error: unknown) => error instanceof LecternError && error.code === 'validation_error' && !!error.fieldErrors?.progress,
        String(progress),
      );
    }
  });
});

describe('timestamp invariants over every reachable action sequence', () => {
  // Each of completed_datetime / dropped_at / exempted_at is non-null exactly in the state it names,
  // and started_at, once set, is never cleared — checked over all sequences up to 5 steps.
  const steps: Array<{ name: string; run: (row: AssignmentLifecycle, now: string) => AssignmentLifecycle }> = [
    ...(['complete', 'drop', 'exempt', 'undo-complete', 'undo-exempt'] as const).map((action) => ({
      name: action,
      run: (row: AssignmentLifecycle, now: string) => applyAction(row, action, now).next,
    })),
    { name: 'progress 0.5', run: (row, now) => applyProgress(row, { progress: 0.5 }, { now, isCompletable: true }).next },
    { name: 'progress 1', run: (row, now) => applyProgress(row, { progress: 1 }, { now, isCompletable: true }).next },
  ];

  it('holds', () => {
    let frontier: Array<{ row: AssignmentLifecycle; path: string[] }> = [{ row: fresh(), path: [] }];
    let checked = 0;
    for (let depth = 1; depth <= 5; depth++) {
      const nextFrontier: typeof frontier = [];
      for (const { row, path } of frontier) {
        for (const step of steps) {
          let after: AssignmentLifecycle;
          try {
            after = step.run(row, `2026-01-01T00:00:0${depth}.000Z`);
          } catch (error) {
            assert.ok(error instanceof LecternError);
            continue;
          }
          const where = [...path, step.name].join(' → ');
          assert.equal(after.completed_datetime !== null, after.state === 'completed', where);
          assert.equal(after.dropped_at !== null, after.state === 'dropped', where);
          assert.equal(after.exempted_at !== null, after.state === 'exempted', where);
          if (row.started_at !== null) assert.equal(after.started_at, row.started_at, where);
          if (after.state === 'completed') assert.equal(after.progress, 1, where);
          checked++;
          nextFrontier.push({ row: after, path: [...path, step.name] });
        }
      }
      frontier = nextFrontier;
    }
    assert.ok(checked > 100);
  });
});
