import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import {
  checkin,
  decideEnrollment,
  drop,
  limitsFor,
  offeredMethods,
  promote,
  seatsToPromote,
  undoCheckin,
  type EnrollmentLifecycle,
  type EnrollmentRequest,
} from './enrollment-rules.ts';

const NOW = '2026-05-01T10:00:00.000Z';
const EARLIER = '2026-04-30T09:00:00.000Z';

const isCode = (code: string) => (error: unknown) => {
  assert.ok(error instanceof LecternError, 'a LecternError');
  assert.equal(error.code, code);
  return true;
};

const request = (overrides: Partial<EnrollmentRequest> = {}): EnrollmentRequest => ({
  method: 'in_person',
  offered: { in_person: true, online: true },
  capacity: { limit: 10, waitListLimit: 5, enrolled: 0, waitlisted: 0 },
  existingActive: null,
  acceptWaitlist: false,
  ...overrides,
});

describe('decideEnrollment', () => {
  it('enrolls when the method has capacity (201, enrollment.enrolled, new not_started assignment)', () => {
    assert.deepEqual(decideEnrollment(request({ capacity: { limit: 10, waitListLimit: 5, enrolled: 9, waitlisted: 0 } })), {
      outcome: 'enrolled',
      events: ['enrollment.enrolled'],
      assignment: { state: 'not_started', eventIfCreated: 'assignment.created' },
    });
  });

  it('treats limit 0 as unlimited', () => {
    const decision = decideEnrollment(request({ capacity: { limit: 0, waitListLimit: 0, enrolled: 100_000, waitlisted: 0 } }));
    assert.equal(decision.outcome, 'enrolled');
  });

  it('waitlists when full and accept_waitlist is true (enrollment.waitlisted)', () => {
    const decision = decideEnrollment(
      request({ capacity: { limit: 10, waitListLimit: 5, enrolled: 10, waitlisted: 4 }, acceptWaitlist: true }),
    );
    assert.equal(decision.outcome, 'waitlisted');
    assert.deepEqual(decision.events, ['enrollment.waitlisted']);
    assert.equal(decision.assignment.state, 'not_started');
  });

  it('treats wait-list limit 0 as unlimited', () => {
    const decision = decideEnrollment(
      request({ capacity: { limit: 1, waitListLimit: 0, enrolled: 1, waitlisted: 9999 }, acceptWaitlist: true }),
    );
    assert.equal(decision.outcome, 'waitlisted');
  });

  it('is 409 full when full without accept_waitlist (absent or false)', () => {
    const full = { limit: 10, waitListLimit: 5, enrolled: 10, waitlisted: 0 };
    assert.throws(() => decideEnrollment(request({ capacity: full })), isCode('full'));
    assert.throws(() => decideEnrollment({ ...request({ capacity: full }), acceptWaitlist: undefined }), isCode('full'));
    assert.throws(() => decideEnrollment(request({ capacity: full })), /accept_waitlist/);
  });

  it('is 409 full when a lowered limit is below the enrolled count', () => {
    assert.throws(
      () => decideEnrollment(request({ capacity: { limit: 5, waitListLimit: 5, enrolled: 8, waitlisted: 0 } })),
      isCode('full'),
    );
  });

  it('is 409 waitlist_full when the wait list is full too', () => {
    assert.throws(
      () => decideEnrollment(request({ capacity: { limit: 10, waitListLimit: 5, enrolled: 10, waitlisted: 5 }, acceptWaitlist: true })),
      isCode('waitlist_full'),
    );
  });

  it('returns the existing active enrollment with the same method (200), whatever the capacity or flag', () => {
    for (const status of ['enrolled', 'waitlisted'] as const) {
      assert.deepEqual(
        decideEnrollment(
          request({
            existingActive: { method: 'in_person', status },
            capacity: { limit: 1, waitListLimit: 1, enrolled: 1, waitlisted: 1 },
          }),
        ),
        { outcome: 'existing' },
      );
    }
    assert.deepEqual(
      decideEnrollment(
        request({ existingActive: { method: 'in_person', status: 'enrolled' }, offered: { in_person: false, online: true } }),
      ),
      { outcome: 'existing' },
      'even when the method is no longer offered',
    );
  });

  it('is 409 method_conflict when an active enrollment has the other method', () => {
    for (const status of ['enrolled', 'waitlisted'] as const) {
      assert.throws(
        () => decideEnrollment(request({ method: 'online', existingActive: { method: 'in_person', status } })),
        isCode('method_conflict'),
      );
    }
  });

  it('ignores a dropped enrollment: the user may enroll again', () => {
    assert.equal(decideEnrollment(request({ existingActive: { method: 'online', status: 'dropped' } })).outcome, 'enrolled');
    assert.equal(decideEnrollment(request({ existingActive: { method: 'in_person', status: 'dropped' } })).outcome, 'enrolled');
  });

  it('is 422 on attendance_method when the method is not offered', () => {
    const notOffered = (error: unknown) => {
      assert.ok(error instanceof LecternError);
      assert.equal(error.code, 'validation_error');
      assert.match(error.fieldErrors?.attendance_method?.[0] ?? '', /does not offer in-person.*is_local/);
      return true;
    };
    assert.throws(() => decideEnrollment(request({ offered: { in_person: false, online: true } })), notOffered);
    assert.throws(
      () => decideEnrollment(request({ method: 'online', offered: { in_person: true, online: false } })),
      (error: unknown) => error instanceof LecternError && /is_online/.test(error.fieldErrors?.attendance_method?.[0] ?? ''),
    );
  });

  it('checks offered (422) before method_conflict (409) and capacity', () => {
    assert.throws(
      () =>
        decideEnrollment(
          request({
            method: 'online',
            offered: { in_person: true, online: false },
            existingActive: { method: 'in_person', status: 'enrolled' },
          }),
        ),
      isCode('validation_error'),
    );
    assert.throws(
      () =>
        decideEnrollment(
          request({
            method: 'online',
            existingActive: { method: 'in_person', status: 'enrolled' },
            capacity: { limit: 1, waitListLimit: 1, enrolled: 1, waitlisted: 1 },
          }),
        ),
      isCode('method_conflict'),
    );
  });

  it('rejects nonsense counts as a programming error', () => {
    assert.throws(() => decideEnrollment(request({ capacity: { limit: -1, waitListLimit: 0, enrolled: 0, waitlisted: 0 } })), RangeError);
    assert.throws(() => decideEnrollment(request({ capacity: { limit: 1, waitListLimit: 0, enrolled: 0.5, waitlisted: 0 } })), RangeError);
  });
});

describe('limitsFor / offeredMethods', () => {
  const event = { enrollment_limit: 20, wait_list_limit: 5, online_enrollment_limit: 100, online_wait_list_limit: 0 };
  it('maps the unprefixed pair to in_person and the online_ pair to online', () => {
    assert.deepEqual(limitsFor(event, 'in_person'), { limit: 20, waitListLimit: 5 });
    assert.deepEqual(limitsFor(event, 'online'), { limit: 100, waitListLimit: 0 });
  });
  it('maps is_local to in_person and is_online to online', () => {
    assert.deepEqual(offeredMethods({ is_local: true, is_online: false }), { in_person: true, online: false });
  });
});

const enrolled: EnrollmentLifecycle = { status: 'enrolled', checkin_datetime: null };
const checkedIn: EnrollmentLifecycle = { status: 'enrolled', checkin_datetime: EARLIER };
const waitlisted: EnrollmentLifecycle = { status: 'waitlisted', checkin_datetime: null };
const dropped: EnrollmentLifecycle = { status: 'dropped', checkin_datetime: null };

describe('checkin', () => {
  it('enrolled → checked in now; enrollment.checked_in; assignment completed', () => {
    assert.deepEqual(checkin(enrolled, NOW), {
      changed: true,
      next: { status: 'enrolled', checkin_datetime: NOW },
      events: ['enrollment.checked_in'],
      assignment: { state: 'completed', event: 'assignment.completed' },
      freesSeat: false,
    });
  });
  it('already checked in → 200 unchanged, keeping the first check-in time, no events', () => {
    assert.deepEqual(checkin(checkedIn, NOW), { changed: false, next: checkedIn, events: [], assignment: null, freesSeat: false });
  });
  it('dropped → 409 dropped', () => assert.throws(() => checkin(dropped, NOW), isCode('dropped')));
  it('waitlisted → 409 waitlisted', () => assert.throws(() => checkin(waitlisted, NOW), isCode('waitlisted')));
});

describe('drop', () => {
  it('enrolled (not checked in) → dropped; frees a seat; assignment dropped', () => {
    assert.deepEqual(drop(enrolled), {
      changed: true,
      next: { status: 'dropped', checkin_datetime: null },
      events: ['enrollment.dropped'],
      assignment: { state: 'dropped', event: 'assignment.dropped' },
      freesSeat: true,
    });
  });
  it('waitlisted → dropped without freeing a seat', () => {
    const result = drop(waitlisted);
    assert.equal(result.next.status, 'dropped');
    assert.deepEqual(result.events, ['enrollment.dropped']);
    assert.deepEqual(result.assignment, { state: 'dropped', event: 'assignment.dropped' });
    assert.equal(result.freesSeat, false);
  });
  it('already dropped → 200 unchanged, no events', () => {
    assert.deepEqual(drop(dropped), { changed: false, next: dropped, events: [], assignment: null, freesSeat: false });
  });
  it('checked in → 409 checked_in', () => assert.throws(() => drop(checkedIn), isCode('checked_in')));
});

describe('undoCheckin', () => {
  it('checked in → enrolled without check-in; enrollment.checkin_undone; assignment back to not_started', () => {
    assert.deepEqual(undoCheckin(checkedIn), {
      changed: true,
      next: { status: 'enrolled', checkin_datetime: null },
      events: ['enrollment.checkin_undone'],
      assignment: { state: 'not_started', event: 'assignment.completion_undone' },
      freesSeat: false,
    });
  });
  for (const [name, row] of [
    ['enrolled, not checked in', enrolled],
    ['waitlisted', waitlisted],
    ['dropped', dropped],
  ] as const) {
    it(`${name} → 409 not_checked_in`, () => assert.throws(() => undoCheckin(row), isCode('not_checked_in')));
  }
});

describe('promote', () => {
  it('waitlisted → enrolled with enrollment.enrolled; the assignment stays not_started', () => {
    assert.deepEqual(promote(waitlisted), {
      changed: true,
      next: { status: 'enrolled', checkin_datetime: null },
      events: ['enrollment.enrolled'],
      assignment: null,
      freesSeat: false,
    });
  });
  it('leaves anything else alone', () => {
    for (const row of [enrolled, checkedIn, dropped]) assert.equal(promote(row).changed, false);
  });
});

describe('seatsToPromote', () => {
  const queue = ['a', 'b', 'c', 'd'];
  it('promotes as many as there are free seats, oldest first', () => {
    assert.deepEqual(seatsToPromote({ limit: 10, enrolled: 9, waitlistedOldestFirst: queue }), ['a']);
    assert.deepEqual(seatsToPromote({ limit: 10, enrolled: 7, waitlistedOldestFirst: queue }), ['a', 'b', 'c']);
    assert.deepEqual(seatsToPromote({ limit: 10, enrolled: 0, waitlistedOldestFirst: queue }), queue);
  });
  it('promotes nobody when full or over the limit', () => {
    assert.deepEqual(seatsToPromote({ limit: 10, enrolled: 10, waitlistedOldestFirst: queue }), []);
    assert.deepEqual(seatsToPromote({ limit: 5, enrolled: 8, waitlistedOldestFirst: queue }), []);
  });
  it('promotes everybody when the limit is 0 (unlimited)', () => {
    assert.deepEqual(seatsToPromote({ limit: 0, enrolled: 500, waitlistedOldestFirst: queue }), queue);
  });
  it('handles an empty wait list and returns a fresh array', () => {
    assert.deepEqual(seatsToPromote({ limit: 3, enrolled: 0, waitlistedOldestFirst: [] }), []);
    const result = seatsToPromote({ limit: 0, enrolled: 0, waitlistedOldestFirst: queue });
    assert.notEqual(result, queue);
  });
  it('rejects nonsense counts', () => {
    assert.throws(() => seatsToPromote({ limit: -1, enrolled: 0, waitlistedOldestFirst: queue }), RangeError);
  });
});

describe('a drop that frees a seat chains into a promotion', () => {
  it('frees exactly one seat for the oldest waitlisted enrollment', () => {
    const result = drop(enrolled);
    assert.equal(result.freesSeat, true);
    const toPromote = seatsToPromote({ limit: 2, enrolled: 1, waitlistedOldestFirst: ['oldest', 'newer'] });
    assert.deepEqual(toPromote, ['oldest']);
    assert.deepEqual(promote(waitlisted).events, ['enrollment.enrolled']);
  });
});
