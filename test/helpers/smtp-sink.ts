/**
 * A real SMTP server on loopback (smtp-server) that keeps every message it accepts, parsed with
 * mailparser. Recipients whose address starts with `tempfail` are refused once with 451, those
 * starting with `permfail` always with 550, so retries and permanent failures can be seen; those in
 * `held` with 451 for as long as they are there, so a message stays queued while a test acts. With
 * `stallAfter: n`, every message after the n-th is kept (as a mail system that received it and then
 * lost the connection would) but never answered, so the sender cannot know it arrived.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  messages: ParsedMail[];
  /** refusals sent, by address */
  refused: Map<string, number>;
  /** lower-case addresses refused with 451 until removed */
  held: Set<string>;
  /** messages kept but left unanswered (see `stallAfter`) */
  stalled: () => number;
  /** answers every later message again */
  resume(): void;
  waitFor(predicate: (message: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export async function startSmtpSink(options: { stallAfter?: number } = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const refused = new Map<string, number>();
  const held = new Set<string>();
  let stalled = 0;
  let stallAfter = options.stallAfter;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // close() waits this long for connections the sender keeps open (a pooled transport keeps them
    // idle until its server stops): its default of 30 s was half a minute of every mail test file
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      const local = address.address.toLowerCase();
      const count = refused.get(local) ?? 0;
      if (local.startsWith('permfail')) {
        refused.set(local, count + 1);
        return callback(smtpError(550, 'No such mailbox here'));
      }
      if (held.has(local)) {
        refused.set(local, count + 1);
        return callback(smtpError(451, 'Held, try again later'));
      }
      if (local.startsWith('tempfail') && count === 0) {
        refused.set(local, 1);
        return callback(smtpError(451, 'Try again later'));
      }
      return callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(parsed);
          if (stallAfter !== undefined && messages.length > stallAfter) stalled++;
          else callback();
        })
        .catch(callback);
    },
  });
  // a server killed mid-conversation (the SIGKILL trials) resets its connections: the sink reports
  // each reset as an 'error' event, which unheard would end the test process
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refused,
    held,
    stalled: () => stalled,
    resume: () => (stallAfter = undefined),
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no such message among ${messages.length}: ${messages.map((m) => m.subject).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
