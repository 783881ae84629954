import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import { simpleParser } from 'mailparser';
import { mailMessage } from './mail-message.ts';
import { composeMime, encodedWords } from './mime-message.ts';
import type { EventPayload } from './notification.ts';

const slot = {
  uid: '7-ev1@lectern',
  summary: 'Ünïcode; and, a \\ backslash',
  description: 'Line one\nline two',
  location: 'Room 😀 '.repeat(12),
  url: null,
  startsAtUtc: '2027-06-01T09:00:00Z',
  endsAtUtc: '2027-06-01T11:00:00Z',
  stamp: '2026-11-28T10:00:00Z',
  sequence: 2,
  status: 'CONFIRMED' as const,
};

const payload = (name: string, kind: EventPayload['kind'] = 'enrolled'): EventPayload =>
  ({
    kind,
    user: { name, email: 'zoe@exämple.com' },
    event: { public_id: 'ev1', name: `Éa "quoted" ${'very long name '.repeat(8)}` },
    slots: [slot],
  }) as EventPayload;

const compose = (name: string, kind?: EventPayload['kind']) =>
  composeMime(
    mailMessage({ publicUrl: 'https://learn.example.com', from: 'Lectern Team <lectern@example.com>' }, 42, payload(name, kind), 'KEY'),
    {
      boundary: '=_lectern_test_1',
      date: new Date('2026-11-28T16:49:57Z'),
    },
  );

describe('MIME composition', () => {
  it('reads back whole with a real parser: headers, both parts, the invitation twice', async () => {
    const { raw, envelope } = compose('Zoë "Z" Ünïcode');
    assert.deepEqual(envelope, { from: 'lectern@example.com', to: ['zoe@xn--exmple-cua.com'] });
    const text = raw.toString('latin1');
    assert.ok(!/[^\x00-\x7f]/.test(text), 'the message is 7-bit: SMTP servers without 8BITMIME take it');
    assert.ok(
      text.split('\r\n').every((line) => line.length <= 998),
      'no line is longer than SMTP allows',
    );
    assert.ok(!/[^\r]\n/.test(text), 'every line ends in CRLF');
    const parsed = await simpleParser(raw);
    assert.equal(parsed.messageId, '<42@learn.example.com>');
    assert.equal(parsed.subject, `You are enrolled: Éa "quoted" ${'very long name '.repeat(8)}`);
    assert.deepEqual(
      (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)!.value.map(({ name, address }) => ({ name, address })),
      [{ name: 'Zoë "Z" Ünïcode', address: 'zoe@exämple.com' }],
    );
    assert.equal(parsed.from!.value[0]!.name, 'Lectern Team');
    assert.equal(parsed.date!.toISOString(), '2026-11-28T16:49:57.000Z');
    assert.match(text, /^List-Unsubscribe: <https:\/\/learn\.example\.com\/unsubscribe\/KEY>\r\n/m);
    assert.match(text, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n/m);
    assert.match(parsed.text!, /^Hello Zoë "Z" Ünïcode,\n/);
    assert.ok((parsed.html as string).includes('Zoë &quot;Z&quot; Ünïcode'));
    const calendar = parsed.attachments.find((part) => part.contentType === 'text/calendar')!;
    const file = parsed.attachments.find((part) => part.filename === 'invite.ics')!;
    assert.equal(calendar.content.toString(), file.content.toString());
    const vcalendar = new ICAL.Component(ICAL.parse(calendar.content.toString()));
    assert.equal(vcalendar.getFirstPropertyValue('method'), 'REQUEST');
    const vevent = vcalendar.getFirstSubcomponent('vevent')!;
    assert.equal(vevent.getFirstPropertyValue('summary'), slot.summary);
    assert.equal(vevent.getFirstPropertyValue('description'), slot.description);
    assert.equal(vevent.getFirstPropertyValue('location'), slot.location);
    assert.equal(vevent.getFirstProperty('attendee')!.getParameter('cn'), 'Zoë "Z" Ünïcode');
  });

  it('sends plain ASCII as 7bit text and a cancelled seat as METHOD:CANCEL', async () => {
    const { raw } = compose('Ada Lovelace', 'dropped');
    const parsed = await simpleParser(raw);
    assert.equal((Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)!.value[0]!.name, 'Ada Lovelace');
    const calendar = parsed.attachments.find((part) => part.contentType === 'text/calendar')!;
    assert.equal(new ICAL.Component(ICAL.parse(calendar.content.toString())).getFirstPropertyValue('method'), 'CANCEL');
  });

  it('keeps header data on its header: a line break cannot start another', async () => {
    const { raw } = compose('Eve\r\nBcc: victim@example.com');
    const parsed = await simpleParser(raw);
    assert.equal(parsed.bcc, undefined);
    assert.ok(!raw.toString().includes('\r\nBcc:'));
  });

  it('splits encoded words between characters, never inside one', () => {
    const words = encodedWords('😀'.repeat(30)).split('\r\n ');
    assert.ok(words.length > 1);
    for (const word of words) {
      assert.ok(word.length <= 75);
      const bytes = Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(word)![1]!, 'base64');
      assert.equal(bytes.toString(), '😀'.repeat(bytes.length / 4));
    }
  });
});
