/**
 * A track's (or scheduled track's) assignment follows its items' assignments (spec: tracks
 * auto-complete). Pure: the caller loads the learner's assignments of the track's direct items
 * (a nested track counts as one item through its own assignment, which follows its own items)
 * and persists the change this returns through the same transition table as every other change.
 *
 * Decisions where the specification is silent:
 * - Only items whose content is completable and which the learner has a live assignment for count.
 *   An item without one (archived or hidden when the track was assigned, added to the track since,
 *   its assignment deleted) is not the learner's to do.
 * - Completed and exempted items are done. A dropped item counts and is not done: a learner must
 *   not complete a track by dropping its hard part; staff exempt the item (or delete its
 *   assignment) to excuse it.
 * - `progress` is done / counted, rounded down to 4 decimals, so it reaches 1 only when all are done.
 * - Nothing counted (an empty track, or nothing of it assigned): the track's assignment is left alone.
 * - A dropped or exempted track assignment is left alone: those are staff's or the learner's decisions.
 * - A track assignment moves to `in_progress` when an item is started or done, and never back to
 *   `not_started` (the machine has no such transition); it completes when every counted item is done.
 * - A completed track assignment reopens (`assignment.completion_undone`) only when an item leaves
 *   the done states — its completion or exemption is undone. A completion staff recorded by hand,
 *   or an item assigned after the track was completed, leaves the completion as it is.
 */
import { applyAction, applyProgress, type AssignmentLifecycle, type AssignmentState, type LifecycleChange } from './assignment-machine.ts';

export interface TrackItemStatus {
  /** the state of the learner's live assignment of the item; null when it has none */
  state: AssignmentState | null;
  /** of the item's content */
  isCompletable: boolean;
}

export interface TrackStatus {
  state: 'not_started' | 'in_progress' | 'completed';
  progress: number;
}

const PROGRESS_STEPS = 10_000;

export const isDone = (state: AssignmentState | null): boolean => state === 'completed' || state === 'exempted';

/** What the items say of the track, or null when no item counts. */
export function trackStatusOf(items: readonly TrackItemStatus[]): TrackStatus | null {
  const counted = items.filter((item) => item.isCompletable && item.state !== null);
  if (counted.length === 0) return null;
  const done = counted.filter((item) => isDone(item.state)).length;
  if (done === counted.length) return { state: 'completed', progress: 1 };
  const started = done > 0 || counted.some((item) => item.state === 'in_progress');
  return {
    state: started ? 'in_progress' : 'not_started',
    progress: Math.floor((done / counted.length) * PROGRESS_STEPS) / PROGRESS_STEPS,
  };
}

export interface FollowOptions {
  now: string;
  /** whether the change that prompted this took an item out of `completed` or `exempted` */
  itemLeftDone: boolean;
}

/** The change the track's assignment takes to follow its items, or null when it stays as it is. */
export function followItems(track: AssignmentLifecycle, items: readonly TrackItemStatus[], options: FollowOptions): LifecycleChange | null {
  const status = trackStatusOf(items);
  if (status === null) return null;
  switch (track.state) {
    case 'dropped':
    case 'exempted':
      return null;
    case 'completed': {
      if (status.state === 'completed' || !options.itemLeftDone) return null;
      const reopened = applyAction(track, 'undo-complete', options.now);
      return { ...reopened, next: { ...reopened.next, progress: status.progress } };
    }
    case 'not_started':
    case 'in_progress': {
      if (status.state === 'completed') return applyAction(track, 'complete', options.now);
      if (status.state === 'not_started' && track.state === 'not_started') return null;
      if (track.state === 'in_progress' && track.progress === status.progress) return null;
      // the progress transition: started_at is stamped once, and the event is assignment.updated
      return applyProgress(track, { progress: status.progress }, { now: options.now, isCompletable: false });
    }
  }
}
