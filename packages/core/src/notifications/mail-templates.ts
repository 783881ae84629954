/**
 * The text and HTML of every message (pure). Every value that comes from data is escaped in the
 * HTML part; the text part is plain text and needs none.
 */
import type { CalendarSlot } from '../calendars/calendar-document.ts';
import type { AssignmentPayload, EventPayload, NotificationPayload } from './notification.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

/** "2026-03-29 00:30–02:30 UTC": the instants as stored; calendar clients show them in the reader's zone. */
function slotLine(slot: CalendarSlot): string {
  const start = slot.startsAtUtc.slice(0, 16).replace('T', ' ');
  const end =
    slot.endsAtUtc.slice(0, 10) === slot.startsAtUtc.slice(0, 10)
      ? slot.endsAtUtc.slice(11, 16)
      : slot.endsAtUtc.slice(0, 16).replace('T', ' ');
  return `${start}–${end} UTC${slot.location ? `, ${slot.location}` : ''}`;
}

const EVENT_SENTENCES: Record<EventPayload['kind'], { subject: (name: string) => string; lead: string }> = {
  enrolled: {
    subject: (name) => `You are enrolled: ${name}`,
    lead: 'You are enrolled in this event. Your calendar invitation is attached.',
  },
  waitlisted: {
    subject: (name) => `You are on the wait list: ${name}`,
    lead: 'The event is full, so you are on its wait list. We will write again if a seat frees up.',
  },
  dropped: { subject: (name) => `Enrollment cancelled: ${name}`, lead: 'Your enrollment in this event was cancelled.' },
  event_changed: {
    subject: (name) => `Event changed: ${name}`,
    lead: 'The time or place of this event changed. Here is the new schedule.',
  },
  event_deleted: { subject: (name) => `Event cancelled: ${name}`, lead: 'This event was cancelled.' },
};

const ASSIGNMENT_SENTENCES: Record<AssignmentPayload['kind'], { subject: (name: string) => string; lead: string }> = {
  assignment_created: { subject: (name) => `New assignment: ${name}`, lead: 'You have been assigned this item.' },
  assignment_due: { subject: (name) => `Due soon: ${name}`, lead: 'This assignment is due soon.' },
  assignment_overdue: { subject: (name) => `Overdue: ${name}`, lead: 'This assignment is past its due date.' },
};

function layout(greeting: string, lead: string, lines: readonly string[], unsubscribeUrl: string): RenderedMail['html'] {
  const items = lines.length > 0 ? `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : '';
  return (
    `<!doctype html><html><body><p>${escapeHtml(greeting)}</p><p>${escapeHtml(lead)}</p>${items}` +
    `<p style="font-size:small">You receive this because email notifications are on for your account. ` +
    `<a href="${escapeHtml(unsubscribeUrl)}">Turn them off</a>.</p></body></html>`
  );
}

function plain(greeting: string, lead: string, lines: readonly string[], unsubscribeUrl: string): string {
  return [
    greeting,
    '',
    lead,
    ...(lines.length > 0 ? ['', ...lines.map((line) => `- ${line}`)] : []),
    '',
    `Turn these emails off: ${unsubscribeUrl}`,
    '',
  ].join('\n');
}

export function renderMail(payload: NotificationPayload, unsubscribeUrl: string): RenderedMail {
  const greeting = `Hello ${payload.user.name},`;
  let subject: string;
  let lead: string;
  let lines: string[];
  if ('event' in payload) {
    const sentences = EVENT_SENTENCES[payload.kind];
    subject = sentences.subject(payload.event.name);
    lead = `${sentences.lead} ${payload.event.name}`;
    lines = payload.slots.map(slotLine);
  } else {
    const sentences = ASSIGNMENT_SENTENCES[payload.kind];
    subject = sentences.subject(payload.assignment.content_name);
    lead = `${sentences.lead} ${payload.assignment.content_name}`;
    lines = payload.assignment.due_date ? [`Due on ${payload.assignment.due_date}`] : [];
  }
  return { subject, text: plain(greeting, lead, lines, unsubscribeUrl), html: layout(greeting, lead, lines, unsubscribeUrl) };
}

/** The subject alone, stored with the notification for the list. */
export const subjectOf = (payload: NotificationPayload): string => renderMail(payload, '').subject;
