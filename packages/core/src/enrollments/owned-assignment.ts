/**
 * How an enrollment moves the assignment it owns (docs/events.md): enrolling leaves it not_started,
 * check-in completes it, undoing the check-in sends it back to not_started, dropping drops it.
 * Everything goes through the assignment machine's one table, so the timestamps and events are
 * exactly what the assignment routes would produce; only undo-check-in lands on `not_started`
 * rather than the machine's `in_progress` (see enrollment-rules.ts).
 *
 * Decision where the specification is silent: an owned assignment that is already where the
 * enrollment sends it, or that the machine cannot move that way (an enrollment that took over a
 * user's earlier assignment of the event, completed or exempted on its own), is left as it is
 * and records nothing: the enrollment's action still succeeds.
 */
import { applyAction, conflictFor, type AssignmentLifecycle, type LifecycleChange } from '../assignments/assignment-machine.ts';
import type { OwnedAssignmentEffect } from './enrollment-rules.ts';

const ACTION_FOR = {
  completed: 'complete',
  dropped: 'drop',
  not_started: 'undo-complete',
} as const;

export function ownedAssignmentChange(current: AssignmentLifecycle, effect: OwnedAssignmentEffect, now: string): LifecycleChange | null {
  if (current.state === effect.state) return null;
  if (!(effect.state in ACTION_FOR)) throw new RangeError(`An enrollment never sends its assignment to ${effect.state}.`);
  const action = ACTION_FOR[effect.state as keyof typeof ACTION_FOR];
  if (conflictFor(current.state, action) !== null) return null;
  const change = applyAction(current, action, now);
  if (change.event !== effect.event)
    throw new RangeError(`The machine answered ${change.event} where the enrollment expects ${effect.event}.`);
  return { event: change.event, next: { ...change.next, state: effect.state } };
}
