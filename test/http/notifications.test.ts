/**
 * Email notifications (docs/notifications.md) through a real SMTP server on loopback, the messages
 * read back with mailparser and their invitations with ical.js.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { uniqueEmail, userWithToken, useServer } from '../helpers/server.ts';

const toAddress = (message: ParsedMail): string => {
  const to = Array.isArray(message.to) ? message.to[0] : message.to;
  return to!.value[0]!.address!;
};
const addressedTo = (email: string, subject?: RegExp) => (message: ParsedMail) =>
  toAddress(message) === email && (subject === undefined || subject.test(message.subject ?? ''));

/** The invitation a message carries: its METHOD and its VEVENTs. */
function invitationOf(message: ParsedMail) {
  const part = message.attachments.find((attachment) => attachment.contentType === 'text/calendar');
  assert.ok(part, `no text/calendar part in "${message.subject}"`);
  const calendar = new ICAL.Component(ICAL.parse(part.content.toString('utf8')));
  return {
    method: calendar.getFirstPropertyValue('method') as string,
    events: calendar.getAllSubcomponents('vevent').map((vevent) => ({
      uid: vevent.getFirstPropertyValue('uid') as string,
      status: vevent.getFirstPropertyValue('status') as string,
      start: (vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    })),
  };
}

const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * An SMTP sink and a server sending to it, for the enclosing `describe`, with the readers of the
 * notifications list the tests poll.
 */
function useMailServer(args: string[]) {
  let sink: SmtpSink | undefined;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(() => sink?.close());
  const smtp = () => sink!;
  const server = useServer(() => ({ args: ['--smtp-url', smtp().url, '--public-url', 'https://learn.example.com', ...args] }));
  const notificationsOf = async (user: any) => {
    const response = await server.api.get(`/api/v2/notifications/?user=${user.public_id}`);
    assert.equal(response.status, 200, response.text);
    return response.body.data as any[];
  };
  /** Polls the list until `predicate` holds for the user's notifications. */
  const settled = async (user: any, predicate: (list: any[]) => boolean) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = await notificationsOf(user);
      if (predicate(list)) return list;
      if (Date.now() > deadline) throw new Error(`notifications never settled: ${JSON.stringify(list)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { smtp, server, notificationsOf, settled };
}

describe('email notifications', () => {
  const { smtp, server, notificationsOf, settled } = useMailServer([
    ...['--mail-from', 'Learning <learning@example.com>', '--mail-retry-schedule', '0,0'],
    ...['--reminder-sweep-seconds', '1', '--reminder-days', '3'],
  ]);

  const newUser = async (prefix = 'mail') => {
    const response = await server.api.post('/api/v2/users/', { email: uniqueEmail(prefix), name: 'Ada <Lovelace> & co' });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const newEvent = async (fields: Record<string, unknown> = {}) => {
    const response = await server.api.post('/api/v2/events/', {
      name: 'Intro to <script>alert(1)</script> & more',
      is_local: true,
      timeslots: [
        { starts_at: '2026-06-01T09:00:00Z', duration: 'PT2H' },
        { starts_at: '2026-06-02T09:00:00Z', duration: 'PT1H' },
      ],
      ...fields,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const enroll = (user: any, event: any) =>
    server.api.post('/api/v2/enrollments/', {
      user_id: user.public_id,
      event_id: event.public_id,
      attendance_method: 'in_person',
      accept_waitlist: true,
    });

  it('sends the enrollment with both parts, a stable Message-ID, one-click unsubscribe and a REQUEST invitation', async () => {
    const user = await newUser();
    const event = await newEvent();
    assert.equal((await enroll(user, event)).status, 201);
    const message = await smtp().waitFor(addressedTo(user.email, /^You are enrolled/));

    const [notification] = await settled(user, (list) => list.length === 1 && list[0].status === 'sent');
    assert.deepEqual(
      { ...notification, created_at: undefined, sent_at: undefined },
      {
        id: notification.id,
        kind: 'enrolled',
        user: { public_id: user.public_id, name: user.name, email: user.email },
        subject: 'You are enrolled: Intro to <script>alert(1)</script> & more',
        status: 'sent',
        attempts: 1,
        last_error: null,
        created_at: undefined,
        sent_at: undefined,
      },
    );
    assert.equal(message.messageId, `<${notification.id}@learn.example.com>`);
    assert.equal(message.subject, notification.subject);
    assert.equal((message.from as any).value[0].address, 'learning@example.com');
    const unsubscribeUrl = /<([^>]+)>/.exec(message.headerLines.find((header) => header.key === 'list-unsubscribe')!.line)![1];
    assert.match(unsubscribeUrl!, /^https:\/\/learn\.example\.com\/unsubscribe\/[A-Za-z0-9_-]{32}$/);
    assert.equal(
      message.headerLines.find((header) => header.key === 'list-unsubscribe-post')?.line,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    assert.match(message.text!, /You are enrolled in this event/);
    assert.ok(message.text!.includes('Intro to <script>alert(1)</script> & more'), 'the text part is plain text');
    assert.ok(typeof message.html === 'string' && message.html.includes('Intro to &lt;script&gt;alert(1)&lt;/script&gt; &amp; more'));
    assert.ok(!(message.html as string).includes('<script>'), 'every value is escaped in the HTML part');
    assert.ok((message.html as string).includes('Ada &lt;Lovelace&gt; &amp; co'));

    const invitation = invitationOf(message);
    assert.equal(invitation.method, 'REQUEST');
    assert.deepEqual(
      invitation.events.map((entry) => entry.uid),
      event.timeslots.map((slot: any) => `${slot.id}-${event.public_id}@lectern`),
    );
    assert.deepEqual(
      invitation.events.map((entry) => [entry.status, entry.start]),
      event.timeslots.map((slot: any) => ['CONFIRMED', new Date(slot.starts_at_utc).toISOString()]),
    );
  });

  it('cancels with method CANCEL and the same UIDs on drop, and tells of a new time, then of the deletion', async () => {
    const dropper = await newUser();
    const stayer = await newUser();
    const event = await newEvent();
    const enrollment = (await enroll(dropper, event)).body;
    assert.equal((await enroll(stayer, event)).status, 201);
    assert.equal((await server.api.post(`/api/v2/enrollments/${enrollment.public_id}/drop/`)).status, 200);
    const cancel = invitationOf(await smtp().waitFor(addressedTo(dropper.email, /^Enrollment cancelled/)));
    assert.equal(cancel.method, 'CANCEL');
    assert.deepEqual(
      cancel.events.map((entry) => [entry.uid, entry.status]),
      event.timeslots.map((slot: any) => [`${slot.id}-${event.public_id}@lectern`, 'CANCELLED']),
    );

    // a new tag is no news; a new time is
    assert.equal((await server.api.patch(`/api/v2/events/${event.public_id}/`, { tags: ['x'] })).status, 200);
    const moved = await server.api.patch(`/api/v2/events/${event.public_id}/`, {
      timeslots: [{ starts_at: '2026-06-03T10:00:00Z', duration: 'PT1H' }],
    });
    assert.equal(moved.status, 200, moved.text);
    const changed = invitationOf(await smtp().waitFor(addressedTo(stayer.email, /^Event changed/)));
    assert.equal(changed.method, 'REQUEST');
    assert.deepEqual(
      changed.events.map((entry) => entry.uid),
      [`${moved.body.timeslots[0].id}-${event.public_id}@lectern`],
    );
    assert.equal((await server.api.delete(`/api/v2/events/${event.public_id}/`)).status, 204);
    const deleted = invitationOf(await smtp().waitFor(addressedTo(stayer.email, /^Event cancelled/)));
    assert.equal(deleted.method, 'CANCEL');
    const kinds = (await settled(stayer, (list) => list.length === 3)).map((n) => n.kind);
    assert.deepEqual(kinds, ['event_deleted', 'event_changed', 'enrolled']);
    assert.deepEqual(
      (await notificationsOf(dropper)).map((n) => n.kind),
      ['dropped', 'enrolled'],
    );
  });

  it('turns email off with the one-click POST, after which messages are recorded as skipped', async () => {
    const user = await newUser();
    const article = (await server.api.post('/api/v2/articles/', { name: 'Handbook' })).body;
    assert.equal(
      (await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: article.public_id })).status,
      201,
    );
    const message = await smtp().waitFor(addressedTo(user.email, /^New assignment: Handbook/));
    const line = message.headerLines.find((header) => header.key === 'list-unsubscribe')!.line;
    const url = new URL(/<([^>]+)>/.exec(line)![1]!);
    const response = await fetch(server.url + url.pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(response.status, 200, await response.text());
    const other = (await server.api.post('/api/v2/articles/', { name: 'Second' })).body;
    assert.equal(
      (await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: other.public_id })).status,
      201,
    );
    const list = await settled(user, (all) => all.length === 2);
    assert.deepEqual(
      list.map((n) => [n.subject, n.status, n.attempts]),
      [
        ['New assignment: Second', 'skipped', 0],
        ['New assignment: Handbook', 'sent', 1],
      ],
    );
    assert.equal((await fetch(`${server.url}/unsubscribe/${'x'.repeat(32)}`, { method: 'POST' })).status, 404);
  });

  it('lets a user switch email back on with PATCH /me/, and keeps the list to admins', async () => {
    const learner = await userWithToken(server, 'user');
    const off = await learner.api.patch('/api/v2/me/', { email_notifications: false });
    assert.deepEqual([off.status, off.body], [200, { email_notifications: false }]);
    const on = await learner.api.patch('/api/v2/me/', { email_notifications: true });
    assert.deepEqual([on.status, on.body], [200, { email_notifications: true }]);
    assert.equal((await learner.api.patch('/api/v2/me/', { email_notification: true })).status, 422);
    assert.equal((await learner.api.get('/api/v2/notifications/')).status, 403);
  });

  it('lets an admin switch a user’s email off on the user resource, with an audit entry', async () => {
    const user = await newUser();
    const fetched = await server.api.get(`/api/v2/users/${user.public_id}/`);
    assert.equal(fetched.body.email_notifications, true);
    const off = await server.api.patch(`/api/v2/users/${user.public_id}/`, { email_notifications: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.email_notifications, false);
    assert.equal((await server.api.get(`/api/v2/users/${user.public_id}/`)).body.email_notifications, false);
    const listed = await server.api.get(`/api/v2/users/?email_notifications=false&email=${encodeURIComponent(user.email)}`);
    assert.deepEqual(
      listed.body.data.map((u: any) => u.public_id),
      [user.public_id],
    );
    const audit = await server.api.get(`/api/v2/audit-log/?resource_id=${user.public_id}`);
    const updates = audit.body.data.filter((entry: any) => entry.action === 'user.updated');
    assert.deepEqual(
      updates.map((entry: any) => entry.changes),
      [{ email_notifications: { from: true, to: false } }],
    );
    assert.equal((await server.api.patch(`/api/v2/users/${user.public_id}/`, { email_notifications: 'no' })).status, 422);
    const learner = await userWithToken(server, 'user');
    assert.equal((await learner.api.patch(`/api/v2/users/${user.public_id}/`, { email_notifications: true })).status, 403);
    // the learner's own switch, changed through /me/, shows on the resource too
    assert.equal((await learner.api.patch('/api/v2/me/', { email_notifications: false })).status, 200);
    assert.equal((await server.api.get(`/api/v2/users/${learner.user.public_id}/`)).body.email_notifications, false);

    const article = (await server.api.post('/api/v2/articles/', { name: 'Muted' })).body;
    assert.equal(
      (await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: article.public_id })).status,
      201,
    );
    const [skipped] = await settled(user, (list) => list.length === 1);
    assert.deepEqual([skipped.status, skipped.attempts], ['skipped', 0]);
  });

  it('retries a temporary failure and fails a permanent one at once', async () => {
    const article = (await server.api.post('/api/v2/articles/', { name: 'Rules' })).body;
    const temporary = (await server.api.post('/api/v2/users/', { email: uniqueEmail('tempfail'), name: 'Temp' })).body;
    const permanent = (await server.api.post('/api/v2/users/', { email: uniqueEmail('permfail'), name: 'Perm' })).body;
    for (const user of [temporary, permanent]) {
      assert.equal(
        (await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: article.public_id })).status,
        201,
      );
    }
    await smtp().waitFor(addressedTo(temporary.email));
    const [sent] = await settled(temporary, (list) => list[0]?.status === 'sent');
    assert.equal(sent.attempts, 2);
    const [failed] = await settled(permanent, (list) => list[0]?.status === 'failed');
    assert.equal(failed.attempts, 1);
    assert.match(failed.last_error, /550/);
    assert.equal(smtp().refused.get(permanent.email.toLowerCase()), 1);
    const filtered = await server.api.get(`/api/v2/notifications/?status=failed&kind=assignment_created&user=${permanent.public_id}`);
    assert.deepEqual(
      filtered.body.data.map((n: any) => n.id),
      [failed.id],
    );
  });

  it('reminds once of a due date within reminder_days and once of an overdue assignment', async () => {
    const user = await newUser();
    const soon = (await server.api.post('/api/v2/articles/', { name: 'Soon' })).body;
    const late = (await server.api.post('/api/v2/articles/', { name: 'Late' })).body;
    const later = (await server.api.post('/api/v2/articles/', { name: 'Later' })).body;
    for (const [item, due] of [
      [soon, dateIn(2)],
      [late, dateIn(-2)],
      [later, dateIn(30)],
    ] as const) {
      const response = await server.api.post('/api/v2/assignments/', {
        user_id: user.public_id,
        content_item_id: item.public_id,
        due_date: due,
      });
      assert.equal(response.status, 201, response.text);
    }
    await smtp().waitFor(addressedTo(user.email, /^Due soon: Soon/));
    await smtp().waitFor(addressedTo(user.email, /^Overdue: Late/));
    // sweeps run every second on each server: after several, there is still one of each
    const until = Date.now() + 3000;
    while (Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    const reminders = (await notificationsOf(user)).filter((n) => n.kind !== 'assignment_created');
    assert.deepEqual(reminders.map((n) => n.subject).sort(), ['Due soon: Soon', 'Overdue: Late']);
    assert.equal(smtp().messages.filter(addressedTo(user.email, /^(Due soon|Overdue)/)).length, 2);
  });
});

describe('email notifications queued before an opt-out', () => {
  // a retry a second for a minute: a held message stays pending while the test turns email off
  const { smtp, server, settled } = useMailServer(['--mail-retry-schedule', Array(60).fill(1).join(',')]);
  const assign = async (user: any, name: string) => {
    const article = (await server.api.post('/api/v2/articles/', { name })).body;
    const response = await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: article.public_id });
    assert.equal(response.status, 201, response.text);
  };
  /** Queues a message the sink refuses for now: it stays pending, retried every second. */
  const queueHeld = async (user: any, name: string) => {
    smtp().held.add(user.email.toLowerCase());
    await assign(user, name);
    await settled(user, (list) => list[0]?.status === 'pending' && list[0].attempts >= 1);
  };
  const newUser = async (name: string) => (await server.api.post('/api/v2/users/', { email: uniqueEmail('held'), name })).body;

  it('skips, rather than sends, what was queued before the admin, the user or the one-click link turned email off', async () => {
    const byAdmin = await newUser('Admin switched');
    const learner = await userWithToken(server, 'user');
    const bySelf = (await server.api.get(`/api/v2/users/${learner.user.public_id}/`)).body;
    const byLink = await newUser('Link clicked');
    const control = await newUser('Still on');
    // the one-click address comes with a message that was sent
    await assign(byLink, 'First for Link clicked');
    const first = await smtp().waitFor((message) => message.subject === 'New assignment: First for Link clicked');
    const unsubscribe = new URL(/<([^>]+)>/.exec(first.headerLines.find((header) => header.key === 'list-unsubscribe')!.line)![1]!);

    for (const user of [byAdmin, bySelf, byLink, control]) await queueHeld(user, `Held for ${user.name}`);
    assert.equal((await server.api.patch(`/api/v2/users/${byAdmin.public_id}/`, { email_notifications: false })).status, 200);
    assert.equal((await learner.api.patch('/api/v2/me/', { email_notifications: false })).status, 200);
    const clicked = await fetch(server.url + unsubscribe.pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(clicked.status, 200);
    // only the control is let through: an attempt begun before an opt-out (its preference read while
    // email was on) and answered after it would be sent, so the others stay refused until a later
    // attempt, which reads the new preference, skips them
    smtp().held.delete(control.email.toLowerCase());

    await smtp().waitFor((message) => message.subject === 'New assignment: Held for Still on', 60_000);
    assert.equal((await settled(control, (list) => list[0]?.status !== 'pending'))[0].status, 'sent');
    for (const user of [byAdmin, bySelf, byLink]) {
      const [latest] = await settled(user, (list) => list[0]?.status !== 'pending');
      assert.deepEqual([latest.subject, latest.status], [`New assignment: Held for ${user.name}`, 'skipped']);
      assert.ok(latest.attempts >= 1, 'it was tried while email was on');
      assert.ok(!smtp().messages.some((message) => message.subject === latest.subject), `${latest.subject} was never sent`);
    }
  });
});
