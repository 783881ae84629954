import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initialLifecycle, type AssignmentLifecycle, type AssignmentState } from './assignment-machine.ts';
import { followItems, trackStatusOf, type TrackItemStatus } from './track-progress.ts';

const NOW = '2026-11-23T10:00:00.000Z';
const EARLIER = '2026-11-20T10:00:00.000Z';
const item = (state: AssignmentState | null, isCompletable = true): TrackItemStatus => ({ state, isCompletable });
const track = (state: AssignmentState, fields: Partial<AssignmentLifecycle> = {}): AssignmentLifecycle => ({
  ...initialLifecycle,
  state,
  ...fields,
});
const follow = (lifecycle: AssignmentLifecycle, items: TrackItemStatus[], itemLeftDone = false) =>
  followItems(lifecycle, items, { now: NOW, itemLeftDone });

describe('trackStatusOf', () => {
  it('counts completed and exempted items as done, the rest as not', () => {
    assert.deepEqual(trackStatusOf([item('completed'), item('exempted')]), { state: 'completed', progress: 1 });
    assert.deepEqual(trackStatusOf([item('completed'), item('not_started')]), { state: 'in_progress', progress: 0.5 });
    assert.deepEqual(trackStatusOf([item('exempted'), item('dropped')]), { state: 'in_progress', progress: 0.5 });
    assert.deepEqual(trackStatusOf([item('not_started'), item('dropped')]), { state: 'not_started', progress: 0 });
  });

  it('is in progress as soon as one item is started, before any is done', () => {
    assert.deepEqual(trackStatusOf([item('in_progress'), item('not_started')]), { state: 'in_progress', progress: 0 });
  });

  it('leaves out items that are not completable or not assigned to the learner', () => {
    assert.deepEqual(trackStatusOf([item('completed'), item(null), item('not_started', false)]), { state: 'completed', progress: 1 });
    assert.deepEqual(trackStatusOf([item(null), item('in_progress', false)]), null);
    assert.equal(trackStatusOf([]), null, 'an empty track says nothing');
  });

  it('rounds progress down to 4 decimals, so it is 1 only when everything is done', () => {
    assert.equal(trackStatusOf([item('completed'), item('not_started'), item('not_started')])!.progress, 0.3333);
    assert.equal(trackStatusOf([item('completed'), item('completed'), item('not_started')])!.progress, 0.6666);
    const many = [...Array.from({ length: 99_999 }, () => item('completed')), item('in_progress')];
    assert.equal(trackStatusOf(many)!.progress, 0.9999);
  });
});

describe('followItems', () => {
  it('starts a not-started track when an item starts, stamping started_at once', () => {
    const change = follow(track('not_started'), [item('in_progress'), item('not_started')])!;
    assert.equal(change.event, 'assignment.updated');
    assert.deepEqual(change.next, { ...track('in_progress'), started_at: NOW });
    const later = follow(track('in_progress', { started_at: EARLIER }), [item('completed'), item('not_started')])!;
    assert.deepEqual(later.next, { ...track('in_progress'), progress: 0.5, started_at: EARLIER });
  });

  it('completes the track when every counted item is done', () => {
    const change = follow(track('in_progress', { progress: 0.5, started_at: EARLIER }), [item('completed'), item('exempted')])!;
    assert.equal(change.event, 'assignment.completed');
    assert.deepEqual(change.next, {
      ...track('completed'),
      progress: 1,
      started_at: EARLIER,
      completed_datetime: NOW,
      progress_before_completion: 0.5,
    });
    assert.equal(follow(track('not_started'), [item('completed')])!.next.state, 'completed', 'straight from not_started');
  });

  it('reopens a completed track when an item leaves the done states', () => {
    const completed = track('completed', {
      progress: 1,
      started_at: EARLIER,
      completed_datetime: EARLIER,
      progress_before_completion: 0.5,
    });
    const change = follow(completed, [item('in_progress'), item('completed')], true)!;
    assert.equal(change.event, 'assignment.completion_undone');
    assert.deepEqual(change.next, { ...track('in_progress'), progress: 0.5, started_at: EARLIER });
  });

  it('keeps a completed track completed otherwise', () => {
    const completed = track('completed', { progress: 1, completed_datetime: EARLIER });
    assert.equal(follow(completed, [item('completed'), item('not_started')]), null, 'an item assigned since, or a completion by hand');
    assert.equal(follow(completed, [item('completed'), item('completed')], true), null);
  });

  it('never moves a started track back to not_started, but follows its progress', () => {
    const started = track('in_progress', { progress: 0.5, started_at: EARLIER });
    const change = follow(started, [item('not_started'), item('not_started')])!;
    assert.deepEqual(change.next, { ...track('in_progress'), started_at: EARLIER });
    assert.equal(follow(track('in_progress', { progress: 0.5 }), [item('completed'), item('in_progress')]), null, 'nothing changed');
  });

  it('leaves dropped and exempted tracks, and tracks with nothing counted, alone', () => {
    assert.equal(follow(track('dropped'), [item('completed')]), null);
    assert.equal(follow(track('exempted'), [item('completed')]), null);
    assert.equal(follow(track('not_started'), []), null);
    assert.equal(follow(track('in_progress', { progress: 0.5 }), [item(null)]), null);
    assert.equal(follow(track('not_started'), [item('not_started'), item('dropped')]), null);
  });
});
