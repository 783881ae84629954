import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAIL_RETRY_SCHEDULE } from '../config.ts';
import { mailMessage, sharedInvitations } from './mail-message.ts';
import { classifySmtpError } from './mail-sender.ts';
import { escapeHtml, renderMail } from './mail-templates.ts';
import { outcomeOf } from './mail-worker.ts';

const now = new Date('2026-05-01T10:00:00.000Z');
const temporary = { ok: false as const, permanent: false, error: '451 Try again later' };

describe('mail outcomes', () => {
  it('waits 1 min, 5 min, 30 min, 2 h and 6 h after temporary failures, then fails', () => {
    const waits = [1, 2, 3, 4, 5].map((attempt) => {
      const outcome = outcomeOf(temporary, attempt, DEFAULT_MAIL_RETRY_SCHEDULE, now);
      assert.equal(outcome.status, 'pending');
      return (Date.parse(outcome.nextAttemptAt!) - now.getTime()) / 1000;
    });
    assert.deepEqual(waits, [60, 300, 1800, 7200, 21600]);
    assert.deepEqual(outcomeOf(temporary, 6, DEFAULT_MAIL_RETRY_SCHEDULE, now), {
      status: 'failed',
      attempts: 6,
      lastError: '451 Try again later',
      sentAt: null,
      nextAttemptAt: null,
    });
  });

  it('fails a permanent refusal at the first attempt and records a success', () => {
    assert.equal(outcomeOf({ ok: false, permanent: true, error: '550' }, 1, DEFAULT_MAIL_RETRY_SCHEDULE, now).status, 'failed');
    assert.deepEqual(outcomeOf({ ok: true }, 2, DEFAULT_MAIL_RETRY_SCHEDULE, now), {
      status: 'sent',
      attempts: 2,
      lastError: null,
      sentAt: now.toISOString(),
      nextAttemptAt: null,
    });
  });

  it('reads 5xx replies as permanent and everything else as temporary', () => {
    assert.equal(classifySmtpError(Object.assign(new Error('no such user'), { responseCode: 550 })).permanent, true);
    assert.equal(classifySmtpError(Object.assign(new Error('busy'), { responseCode: 421 })).permanent, false);
    assert.equal(classifySmtpError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' })).permanent, false);
  });
});

describe('mail templates', () => {
  it('escapes every value in the HTML part', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const mail = renderMail(
      {
        kind: 'assignment_created',
        user: { name: '<b>Eve</b>', email: 'eve@example.com' },
        assignment: { public_id: 'a', content_name: '"><img src=x>', due_date: '2026-06-01' },
      },
      'https://learn.example.com/unsubscribe/k"ey',
    );
    assert.equal(mail.subject, 'New assignment: "><img src=x>');
    assert.ok(!mail.html.includes('<img') && !mail.html.includes('<b>Eve'));
    assert.ok(mail.html.includes('href="https://learn.example.com/unsubscribe/k&quot;ey"'));
    assert.ok(mail.text.includes('"><img src=x>') && mail.text.includes('Due on 2026-06-01'));
  });
});

describe('mail invitations', () => {
  const payload = {
    kind: 'enrolled' as const,
    user: { name: 'Ada', email: 'ada@example.com' },
    event: { public_id: 'ev1', name: 'Intro' },
    slots: [
      {
        uid: '1-ev1@lectern',
        summary: 'Intro',
        description: '',
        location: '',
        url: null,
        startsAtUtc: '2027-06-01T09:00:00Z',
        endsAtUtc: '2027-06-01T11:00:00Z',
        stamp: '2026-11-28T10:00:00Z',
        sequence: 0,
        status: 'CONFIRMED' as const,
      },
    ],
  };

  it('has an organizer when the From address is bare, and a shared invitation is the same text', () => {
    const context = { publicUrl: 'https://learn.example.com', from: 'lectern@example.com' };
    const alone = mailMessage(context, 1, payload, 'k');
    assert.match(alone.icalEvent!.content, /^ORGANIZER;CN="lectern@example.com":mailto:lectern@example.com\r$/m);
    assert.equal(mailMessage(context, 1, payload, 'k', sharedInvitations()).icalEvent!.content, alone.icalEvent!.content);
  });
});
