/**
 * The assignment lifecycle (spec "States and transitions › Assignment", the state-specific 409
 * table, docs/assignments.md) as ONE table, so the HTTP actions, learner progress, enrollments and bulk
 * jobs cannot drift apart. Everything here is pure: callers pass `now` in and persist the result.
 *
 * Decisions where the specification is silent (mirrored in the reply to the lead):
 * - `progress` on `exempted` is allowed and keeps the state `exempted`: an exemption is an
 *   administrator's decision that a learner's engagement must not silently revoke. Because
 *   `complete` is allowed from `exempted`, a progress report of 1.0 on completable content still
 *   auto-completes an exempted assignment, exactly like the `complete` action would.
 * - Every allowed transition emits exactly one webhook event. Learner progress that does not
 *   complete the assignment emits `assignment.updated` (the catalog has no "started" event and
 *   the payload is the full resource, so subscribers see the new state and `started_at`).
 * - Timestamps: `completed_datetime`, `dropped_at` and `exempted_at` are non-null exactly while
 *   the assignment is in the state they name, so leaving a state clears its timestamp (undo
 *   actions, and completing or dropping an exempted assignment). `started_at` records the first
 *   engagement: progress sets it when it is still null and nothing ever clears it; the admin
 *   actions (`complete`, `exempt`, …) do not invent an engagement that never happened.
 * - `undo-complete` restores the progress held before completion (docs/assignments.md), which needs
 *   one internal column, `progress_before_completion`; it falls back to 0 when absent.
 */
import { conflict, fieldError, type ErrorCode } from '../shared/errors.ts';

export const assignmentStates = ['not_started', 'in_progress', 'completed', 'dropped', 'exempted'] as const;
export type AssignmentState = (typeof assignmentStates)[number];

export const assignmentActions = ['complete', 'drop', 'exempt', 'undo-complete', 'undo-exempt', 'progress'] as const;
export type AssignmentAction = (typeof assignmentActions)[number];

export type AssignmentEventType =
  | 'assignment.completed'
  | 'assignment.dropped'
  | 'assignment.exempted'
  | 'assignment.completion_undone'
  | 'assignment.exemption_undone'
  | 'assignment.updated';

export type AssignmentTimestamp = 'started_at' | 'completed_datetime' | 'dropped_at' | 'exempted_at';

/** `set_if_null` keeps the first value, for timestamps that record a first occurrence. */
export type TimestampEffect = 'set' | 'set_if_null' | 'clear';
export type TimestampEffects = Readonly<Partial<Record<AssignmentTimestamp, TimestampEffect>>>;

export type AssignmentConflictCode = Extract<
  ErrorCode,
  'dropped' | 'already_completed' | 'not_outstanding' | 'not_completed' | 'not_exempted'
>;

interface AllowedCell {
  readonly next: AssignmentState;
  readonly event: AssignmentEventType;
  readonly stamps: TimestampEffects;
}
interface ConflictCell {
  readonly conflict: AssignmentConflictCode;
}
type Cell = AllowedCell | ConflictCell;

const to = (next: AssignmentState, event: AssignmentEventType, stamps: TimestampEffects = {}): AllowedCell => ({
  next,
  event,
  stamps,
});
const no = (code: AssignmentConflictCode): ConflictCell => ({ conflict: code });

// Shorthands for the timestamp effects, so each row of the table fits on one line.
const COMPLETE: TimestampEffects = { completed_datetime: 'set' };
const COMPLETE_FROM_EXEMPTED: TimestampEffects = { completed_datetime: 'set', exempted_at: 'clear' };
const DROP: TimestampEffects = { dropped_at: 'set' };
const DROP_FROM_EXEMPTED: TimestampEffects = { dropped_at: 'set', exempted_at: 'clear' };
const ENGAGE: TimestampEffects = { started_at: 'set_if_null' };

/** Not started and in progress answer every action alike: progress only stamps the start once. */
const OUTSTANDING: Readonly<Record<AssignmentAction, Cell>> = {
  complete: to('completed', 'assignment.completed', COMPLETE),
  drop: to('dropped', 'assignment.dropped', DROP),
  exempt: to('exempted', 'assignment.exempted', { exempted_at: 'set' }),
  'undo-complete': no('not_completed'),
  'undo-exempt': no('not_exempted'),
  progress: to('in_progress', 'assignment.updated', ENGAGE),
};

/**
 * The whole lifecycle. A 409 row of the specification names the states in which an action fails;
 * as docs/assignments.md says, the action is allowed from every other state.
 */
export const assignmentTransitions: Readonly<Record<AssignmentState, Readonly<Record<AssignmentAction, Cell>>>> = {
  not_started: OUTSTANDING,
  in_progress: OUTSTANDING,
  completed: {
    complete: no('already_completed'),
    drop: no('already_completed'),
    exempt: no('not_outstanding'),
    'undo-complete': to('in_progress', 'assignment.completion_undone', { completed_datetime: 'clear' }),
    'undo-exempt': no('not_exempted'),
    progress: no('already_completed'),
  },
  dropped: {
    complete: no('dropped'),
    drop: no('dropped'),
    exempt: no('not_outstanding'),
    'undo-complete': no('not_completed'),
    'undo-exempt': no('not_exempted'),
    progress: no('dropped'),
  },
  exempted: {
    complete: to('completed', 'assignment.completed', COMPLETE_FROM_EXEMPTED),
    drop: to('dropped', 'assignment.dropped', DROP_FROM_EXEMPTED),
    exempt: no('not_outstanding'),
    'undo-complete': no('not_completed'),
    'undo-exempt': to('in_progress', 'assignment.exemption_undone', { exempted_at: 'clear' }),
    progress: to('exempted', 'assignment.updated', ENGAGE),
  },
};

const ACTION_PHRASE: Record<AssignmentAction, string> = {
  complete: 'complete',
  drop: 'drop',
  exempt: 'exempt',
  'undo-complete': 'undo the completion of',
  'undo-exempt': 'undo the exemption of',
  progress: 'record progress on',
};

// A hint per (action, code) where there is a way forward; the message always names the state.
const HINTS: Partial<Record<`${AssignmentAction}:${AssignmentConflictCode}`, string>> = {
  'complete:already_completed': 'It is already completed.',
  'drop:already_completed': 'A completed assignment cannot be dropped; undo the completion first.',
  'drop:dropped': 'It is already dropped.',
  'progress:already_completed': 'Undo the completion first to record further progress.',
  'exempt:not_outstanding': 'Only an outstanding (not_started or in_progress) assignment can be exempted.',
  'undo-complete:not_completed': 'Only a completed assignment can have its completion undone.',
  'undo-exempt:not_exempted': 'Only an exempted assignment can have its exemption undone.',
  'complete:dropped': 'A dropped assignment cannot be completed.',
  'progress:dropped': 'A dropped assignment no longer records progress.',
};

export function conflictMessage(state: AssignmentState, action: AssignmentAction, code: AssignmentConflictCode): string {
  const hint = HINTS[`${action}:${code}`];
  return `Cannot ${ACTION_PHRASE[action]} this assignment: its state is ${state}.${hint ? ` ${hint}` : ''}`;
}

export interface TransitionOk {
  ok: true;
  from: AssignmentState;
  action: AssignmentAction;
  next: AssignmentState;
  event: AssignmentEventType;
  stamps: TimestampEffects;
}

/** The next state, event and timestamp effects of an action; throws the 409 LecternError otherwise. */
export function transition(state: AssignmentState, action: AssignmentAction): TransitionOk {
  const cell = assignmentTransitions[state][action];
  if ('conflict' in cell) throw conflict(cell.conflict, conflictMessage(state, action, cell.conflict));
  return { ok: true, from: state, action, next: cell.next, event: cell.event, stamps: cell.stamps };
}

/** The 409 code an action would fail with, or null when it is allowed; never throws. */
export function conflictFor(state: AssignmentState, action: AssignmentAction): AssignmentConflictCode | null {
  const cell = assignmentTransitions[state][action];
  return 'conflict' in cell ? cell.conflict : null;
}

export const canTransition = (state: AssignmentState, action: AssignmentAction): boolean => conflictFor(state, action) === null;

/**
 * 'Outstanding' means not completed, not dropped, not exempted: the states still owed. Storage
 * builds its overdue SQL from this list (assignments/assignment-repository.ts `overdueSql`), so the
 * list and `isOverdue` below are the one statement of the rule.
 */
export const outstandingStates = ['not_started', 'in_progress'] as const satisfies readonly AssignmentState[];

export const isOutstanding = (state: AssignmentState): boolean => (outstandingStates as readonly AssignmentState[]).includes(state);

/**
 * Overdue: `due_date` strictly before today (UTC) on an outstanding assignment (docs/assignments.md).
 * Both dates are `YYYY-MM-DD`, which compare correctly as strings; the caller passes today so tests
 * need no clock.
 */
export function isOverdue(assignment: { state: AssignmentState; due_date: string | null }, todayUtc: string): boolean {
  return assignment.due_date !== null && assignment.due_date < todayUtc && isOutstanding(assignment.state);
}

/** The lifecycle columns of an assignment row that the actions change. */
export interface AssignmentLifecycle {
  state: AssignmentState;
  progress: number;
  started_at: string | null;
  completed_datetime: string | null;
  dropped_at: string | null;
  exempted_at: string | null;
  /** Internal: the progress held when the assignment was last completed, restored by undo-complete. */
  progress_before_completion: number | null;
}

/** The lifecycle of a new assignment. */
export const initialLifecycle: Readonly<AssignmentLifecycle> = {
  state: 'not_started',
  progress: 0,
  started_at: null,
  completed_datetime: null,
  dropped_at: null,
  exempted_at: null,
  progress_before_completion: null,
};

export interface LifecycleChange {
  next: AssignmentLifecycle;
  /** The one webhook event to record for this change. */
  event: AssignmentEventType;
}

function applyStamps(current: AssignmentLifecycle, stamps: TimestampEffects, now: string): AssignmentLifecycle {
  const next = { ...current };
  for (const [field, effect] of Object.entries(stamps) as Array<[AssignmentTimestamp, TimestampEffect]>) {
    if (effect === 'clear') next[field] = null;
    else if (effect === 'set' || next[field] === null) next[field] = now;
  }
  return next;
}

/**
 * Applies one of the five administrative actions (everything but `progress`, which carries a
 * value: see applyProgress). Throws the 409 LecternError when the table forbids it.
 */
export function applyAction(current: AssignmentLifecycle, action: Exclude<AssignmentAction, 'progress'>, now: string): LifecycleChange {
  const step = transition(current.state, action);
  const next = applyStamps(current, step.stamps, now);
  next.state = step.next;
  if (step.next === 'completed') {
    next.progress_before_completion = current.progress;
    next.progress = 1;
  } else if (action === 'undo-complete') {
    next.progress = current.progress_before_completion ?? 0;
    next.progress_before_completion = null;
  }
  return { next, event: step.event };
}

export interface ProgressReport {
  /** Fraction 0..1 as reported by the learner's client; stored as reported (it may go down on a retake). */
  progress: number;
}

/**
 * Learner engagement (docs/assignments.md): moves not_started to in_progress and sets `started_at`;
 * progress 1.0 on completable content auto-completes through the same `complete` transition the
 * action uses, emitting `assignment.completed` instead of `assignment.updated`. Throws 409 on
 * dropped/completed and 422 on `progress` outside 0..1.
 */
export function applyProgress(
  current: AssignmentLifecycle,
  report: ProgressReport,
  options: { now: string; isCompletable: boolean },
): LifecycleChange {
  const value = report.progress;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw fieldError('progress', 'Must be a number between 0 and 1.');
  }
  const engaged = transition(current.state, 'progress');
  const next = applyStamps(current, engaged.stamps, options.now);
  next.state = engaged.next;
  next.progress = value;
  if (value === 1 && options.isCompletable) {
    // Keep the pre-report value so undo-complete reopens where the learner was before finishing.
    const completed = applyAction({ ...next, progress: current.progress }, 'complete', options.now);
    return completed;
  }
  return { next, event: engaged.event };
}
