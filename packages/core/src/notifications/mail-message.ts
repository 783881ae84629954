/**
 * One notification as the email it becomes (pure): both parts, the stable Message-ID, the
 * one-click unsubscribe headers (RFC 8058) and, for enrollment messages, the invitation.
 */
import { calendarDocument, invitationsFor, type Attendee, type CalendarDocument } from '../calendars/calendar-document.ts';
import { renderMail } from './mail-templates.ts';
import type { NotificationPayload } from './notification.ts';

export interface MailMessage {
  from: string;
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
  /** `text/calendar; method=…`: calendar clients file it under the same UIDs as the feed */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

export interface MailContext {
  publicUrl: string;
  from: string;
}

const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

export const unsubscribeUrl = (publicUrl: string, key: string): string => `${base(publicUrl)}/unsubscribe/${key}`;

/** `<id@host>`: the same for every attempt, so a repeat after a crash is recognisably the same message. */
export const messageIdOf = (publicUrl: string, id: number): string => `<${id}@${new URL(publicUrl).hostname}>`;

/** The address in `Name <address>` or a bare address. */
export function addressOf(from: string): { name: string; email: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  return match ? { name: match[1]!.replace(/^"|"$/g, ''), email: match[2]! } : { name: '', email: from.trim() };
}

/**
 * The invitation's ORGANIZER: a bare From address has no name, and ical-generator refuses an
 * organizer without one (it threw, and no invitation went out), so the address stands in.
 */
function organizerOf(from: string): { name: string; email: string } {
  const { name, email } = addressOf(from);
  return { name: name || email, email };
}

/** Writes an invitation: `calendarDocument` with the attendee, by whatever way is cheapest. */
export type Invitations = (doc: Omit<CalendarDocument, 'attendee'>, attendee: Attendee) => string;

const oneInvitation: Invitations = (doc, attendee) => calendarDocument({ ...doc, attendee });

/** Event states (with method and organizer) a sender keeps the shared invitation text of. */
const KEPT_STATES = 32;

/**
 * Invitations for a stream of messages: a burst is thousands of messages about one event state,
 * whose document is written once (`invitationsFor`). The last few states are kept; a change of the
 * event is a new state, so nothing kept is ever stale.
 */
export function sharedInvitations(): Invitations {
  const writers = new Map<string, (attendee: Attendee) => string>();
  return (doc, attendee) => {
    const key = JSON.stringify(doc);
    let write = writers.get(key);
    if (!write) {
      if (writers.size >= KEPT_STATES) writers.delete(writers.keys().next().value!);
      writers.set(key, (write = invitationsFor(doc)));
    }
    return write(attendee);
  };
}

export function mailMessage(
  context: MailContext,
  id: number,
  payload: NotificationPayload,
  unsubscribeKey: string,
  invitations: Invitations = oneInvitation,
): MailMessage {
  const unsubscribe = unsubscribeUrl(context.publicUrl, unsubscribeKey);
  const rendered = renderMail(payload, unsubscribe);
  const message: MailMessage = {
    from: context.from,
    to: { name: payload.user.name, address: payload.user.email },
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: messageIdOf(context.publicUrl, id),
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
  if ('event' in payload && payload.slots.length > 0) {
    const method = payload.kind === 'dropped' || payload.kind === 'event_deleted' ? 'CANCEL' : 'REQUEST';
    message.icalEvent = {
      method,
      content: invitations(
        { name: payload.event.name, slots: payload.slots, method, organizer: organizerOf(context.from) },
        { name: payload.user.name, email: payload.user.email },
      ),
    };
  }
  return message;
}
