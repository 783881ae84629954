import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initialLifecycle, type AssignmentLifecycle } from '../assignments/assignment-machine.ts';
import { checkin, drop, undoCheckin } from './enrollment-rules.ts';
import { ownedAssignmentChange } from './owned-assignment.ts';

const NOW = '2026-05-01T10:00:00.000Z';
const fresh: AssignmentLifecycle = { ...initialLifecycle };
const enrolled = { status: 'enrolled', checkin_datetime: null } as const;

describe('ownedAssignmentChange', () => {
  it('completes on check-in, returns to not_started on undo, drops on drop', () => {
    const completed = ownedAssignmentChange(fresh, checkin(enrolled, NOW).assignment!, NOW)!;
    assert.equal(completed.event, 'assignment.completed');
    assert.deepEqual([completed.next.state, completed.next.progress, completed.next.completed_datetime], ['completed', 1, NOW]);

    const undone = ownedAssignmentChange(completed.next, undoCheckin({ status: 'enrolled', checkin_datetime: NOW }).assignment!, NOW)!;
    assert.equal(undone.event, 'assignment.completion_undone');
    assert.deepEqual([undone.next.state, undone.next.progress, undone.next.completed_datetime], ['not_started', 0, null]);

    const dropped = ownedAssignmentChange(undone.next, drop(enrolled).assignment!, NOW)!;
    assert.equal(dropped.event, 'assignment.dropped');
    assert.deepEqual([dropped.next.state, dropped.next.dropped_at], ['dropped', NOW]);
  });

  it('changes nothing when the assignment is already there or the machine cannot move it that way', () => {
    assert.equal(ownedAssignmentChange({ ...fresh, state: 'completed' }, checkin(enrolled, NOW).assignment!, NOW), null);
    assert.equal(ownedAssignmentChange({ ...fresh, state: 'completed' }, drop(enrolled).assignment!, NOW), null);
    assert.equal(ownedAssignmentChange({ ...fresh, state: 'dropped' }, checkin(enrolled, NOW).assignment!, NOW), null);
    assert.equal(
      ownedAssignmentChange({ ...fresh, state: 'in_progress' }, { state: 'not_started', event: 'assignment.completion_undone' }, NOW),
      null,
    );
  });
});
