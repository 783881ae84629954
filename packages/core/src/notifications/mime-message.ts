/**
 * A `MailMessage` as the bytes handed to SMTP (RFC 5322, MIME), pure: the boundary and the date
 * are arguments. Every message we send has one shape, so it is written directly instead of through
 * a general composer (nodemailer's streamed its parts through a pipeline of transforms, a third of
 * the background thread's time in a burst): multipart/mixed of a multipart/alternative (text,
 * HTML and, for invitations, the text/calendar part calendar clients act on) and the invitation
 * again as an `invite.ics` attachment, for clients that only look at attachments.
 *
 * Bodies are 7bit when they are plain ASCII in short lines, else base64; header text outside
 * ASCII becomes RFC 2047 encoded words. Dots at line starts are the SMTP transport's to escape.
 */
import { domainToASCII } from 'node:url';
import { addressOf, type MailMessage } from './mail-message.ts';

export interface ComposedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

const CRLF = '\r\n';

// printable ASCII, tab and line breaks, and no line longer than SMTP's 998 octets
const SEVEN_BIT = /^[\t\r\n\x20-\x7e]*$/;
const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;
// a display name that needs no quotes: atext and spaces (RFC 5322 3.2.3)
const ATEXT_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;

/** A header value on one logical line: a CR or LF in data must not start a header of its own. */
const oneLine = (value: string): string => value.replace(/[\r\n\0]+/g, ' ');

/** base64 in lines of 76 characters (RFC 2045 6.8). */
function base64Lines(bytes: Buffer): string {
  const encoded = bytes.toString('base64');
  let out = '';
  for (let at = 0; at < encoded.length; at += 76) out += (at > 0 ? CRLF : '') + encoded.slice(at, at + 76);
  return out;
}

/**
 * RFC 2047 "B" encoded words of at most 75 characters, none splitting a character: 45 bytes of
 * UTF-8 make 60 characters of base64, plus the 12 of `=?UTF-8?B?…?=`.
 */
export function encodedWords(value: string): string {
  const words: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const char of value) {
    const size = Buffer.byteLength(char);
    if (bytes + size > 45) {
      words.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += char;
    bytes += size;
  }
  if (chunk || words.length === 0) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join(`${CRLF} `);
}

/** Unstructured header text (Subject): as it is when ASCII, folded at spaces; encoded words otherwise. */
function headerText(name: string, value: string): string {
  const clean = oneLine(value);
  if (!ASCII_PRINTABLE.test(clean)) return `${name}: ${encodedWords(clean)}`;
  // fold before a space once a line passes 76 characters (RFC 5322 2.2.3)
  let line = `${name}:`;
  let out = '';
  for (const word of clean.split(' ')) {
    if (line.length + 1 + word.length > 76 && line.length > name.length + 1) {
      out += line + CRLF;
      line = '';
    }
    line += ` ${word}`;
  }
  return out + line;
}

/** An address with an internationalised domain in its ASCII (punycode) form, as SMTP carries it. */
function asciiAddress(address: string): string {
  const clean = oneLine(address).trim();
  if (ASCII_PRINTABLE.test(clean)) return clean;
  const at = clean.lastIndexOf('@');
  if (at < 0) return clean;
  return `${clean.slice(0, at)}@${domainToASCII(clean.slice(at + 1)) || clean.slice(at + 1)}`;
}

/** `Name <address>`: the name bare, quoted or as encoded words, whichever it needs. */
function mailbox(name: string, address: string): string {
  const display = oneLine(name).trim();
  const email = asciiAddress(address);
  if (!display) return email;
  if (ATEXT_PHRASE.test(display)) return `${display} <${email}>`;
  if (ASCII_PRINTABLE.test(display)) return `"${display.replace(/["\\]/g, '\\$&')}" <${email}>`;
  return `${encodedWords(display)} <${email}>`;
}

/** True when some line of `crlfText` is longer than SMTP's 998 octets (a regex for it backtracks). */
function hasLongLine(crlfText: string): boolean {
  let start = 0;
  for (;;) {
    const end = crlfText.indexOf('\r\n', start);
    if ((end < 0 ? crlfText.length : end) - start > 998) return true;
    if (end < 0) return false;
    start = end + 2;
  }
}

/** A body part: its Content-Transfer-Encoding header line and its content, in CRLF lines. */
function encodedBody(content: string): string {
  const lines = content.replace(/\r?\n/g, CRLF);
  if (SEVEN_BIT.test(lines) && !hasLongLine(lines)) return `Content-Transfer-Encoding: 7bit${CRLF}${CRLF}${lines}`;
  return `Content-Transfer-Encoding: base64${CRLF}${CRLF}${base64Lines(Buffer.from(content))}`;
}

/** RFC 5322's date: "Sat, 28 Nov 2026 16:49:57 +0000". */
const rfc5322Date = (date: Date): string => date.toUTCString().replace(/GMT$/, '+0000');

/** `boundary` must not occur in any part: a random token per process and a counter do (see MailSender). */
export function composeMime(message: MailMessage, options: { boundary: string; date: Date }): ComposedMail {
  const from = addressOf(message.from);
  const mixed = `${options.boundary}_m`;
  const alternative = `${options.boundary}_a`;
  const headers = [
    ...Object.entries(message.headers).map(([name, value]) => `${name}: ${oneLine(value)}`),
    `From: ${mailbox(from.name, from.email)}`,
    `To: ${mailbox(message.to.name, message.to.address)}`,
    headerText('Subject', message.subject),
    `Message-ID: ${oneLine(message.messageId)}`,
    `Date: ${rfc5322Date(options.date)}`,
    'MIME-Version: 1.0',
  ];
  const parts = [
    `Content-Type: text/plain; charset=utf-8${CRLF}${encodedBody(message.text)}`,
    `Content-Type: text/html; charset=utf-8${CRLF}${encodedBody(message.html)}`,
  ];
  const ical = message.icalEvent;
  if (ical) parts.push(`Content-Type: text/calendar; charset=utf-8; method=${ical.method}${CRLF}${encodedBody(ical.content)}`);
  const alternatives = `${parts.map((part) => `--${alternative}${CRLF}${part}${CRLF}`).join('')}--${alternative}--`;
  let body: string;
  if (ical) {
    headers.push(`Content-Type: multipart/mixed; boundary="${mixed}"`);
    body =
      `--${mixed}${CRLF}Content-Type: multipart/alternative; boundary="${alternative}"${CRLF}${CRLF}${alternatives}${CRLF}` +
      `--${mixed}${CRLF}Content-Type: application/ics; name=invite.ics${CRLF}` +
      `Content-Disposition: attachment; filename=invite.ics${CRLF}` +
      `Content-Transfer-Encoding: base64${CRLF}${CRLF}${base64Lines(Buffer.from(ical.content))}${CRLF}--${mixed}--`;
  } else {
    headers.push(`Content-Type: multipart/alternative; boundary="${alternative}"`);
    body = alternatives;
  }
  return {
    envelope: { from: asciiAddress(from.email), to: [asciiAddress(message.to.address)] },
    raw: Buffer.from(`${headers.join(CRLF)}${CRLF}${CRLF}${body}${CRLF}`),
  };
}
