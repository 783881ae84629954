/**
 * An example of each main resource, shown by the reference page and by generated docs.
 * test/http/openapi.test.ts validates each against its component schema, so none can go stale.
 */
const ada = { public_id: '0b6f1c52-5d0c-4a8e-9d7a-2f1e4c3b2a10', name: 'Ada Lovelace', email: 'ada@example.com' };

export const schemaExamples: Record<string, unknown> = {
  User: {
    ...ada,
    role: 'organizer',
    employee_id: 'E-1815',
    is_active: true,
    manager: null,
    date_joined: '2026-01-31T09:00:00.000Z',
  },
  UserCreate: { email: 'ada@example.com', name: 'Ada Lovelace', role: 'organizer' },
  Group: {
    public_id: '5f0e8a1c-7b2d-4c3e-8f9a-0b1c2d3e4f50',
    name: 'Analytical engines',
    source: null,
    member_count: 12,
    owners: [ada],
    created: '2026-02-01T10:00:00.000Z',
    modified: '2026-02-03T16:30:00.000Z',
  },
  Channel: {
    public_id: '9d8c7b6a-5f4e-4d3c-8b2a-190817161514',
    name: 'Engineering',
    created: '2026-02-01T10:00:00.000Z',
    modified: '2026-02-01T10:00:00.000Z',
  },
  Location: { id: 3, name: 'Berlin office', timezone: 'Europe/Berlin' },
  Assignment: {
    public_id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
    user: ada,
    content_item: { public_id: 'aa11bb22-cc33-4d44-8e55-ff6677889900', name: 'Notes on the engine', content_type: 'article' },
    state: 'in_progress',
    progress: 0.4,
    score: null,
    is_success: null,
    due_date: '2026-03-31',
    is_overdue: false,
    started_at: '2026-02-10T08:15:00.000Z',
    completed_datetime: null,
    dropped_at: null,
    exempted_at: null,
    expires_at: null,
    feedback_rating: null,
    feedback_text: null,
    drop_reason: null,
    attempt: 1,
    is_enrollment_managed: false,
    created: '2026-02-09T12:00:00.000Z',
    modified: '2026-02-10T08:15:00.000Z',
  },
  AssignmentCreate: { user_id: ada.public_id, content_item_id: 'aa11bb22-cc33-4d44-8e55-ff6677889900', due_date: '2026-03-31' },
  Enrollment: {
    public_id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
    user: ada,
    event: { public_id: 'f0e1d2c3-b4a5-4968-8776-655443322110', name: 'Engine walkthrough' },
    status: 'enrolled',
    attendance_method: 'in_person',
    checkin_datetime: null,
    state: 'not_started',
    created: '2026-02-12T09:30:00.000Z',
  },
};
