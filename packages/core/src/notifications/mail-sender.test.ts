import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { MailSender } from './mail-sender.ts';
import type { MailMessage } from './mail-message.ts';

const message = (to: string, n: number): MailMessage => ({
  from: 'Lectern <lectern@example.com>',
  to: { name: `User ${n}`, address: to },
  subject: `Message ${n}`,
  text: `Hello ${n}\n`,
  html: `<p>Hello ${n}</p>`,
  messageId: `<${n}@learn.example.com>`,
  headers: { 'List-Unsubscribe': '<https://learn.example.com/unsubscribe/k>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
});

describe('MailSender on a real SMTP server', () => {
  const received: Array<{ messageId: string | undefined; session: string }> = [];
  const sessions = new Set<string>();
  let server: SMTPServer;
  let url: string;
  /** the server hangs up on the next message's MAIL FROM, as one that closed an idle connection */
  let hangUp = false;

  before(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onMailFrom(_address, session, callback) {
        if (!hangUp) return callback();
        hangUp = false;
        const connections = (server as unknown as { connections: Set<{ id: string; close(): void }> }).connections;
        [...connections].find((connection) => connection.id === session.id)!.close();
      },
      onConnect(session, callback) {
        sessions.add(session.id);
        callback();
      },
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('perm')) return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
        if (address.address.startsWith('temp')) return callback(Object.assign(new Error('Try later'), { responseCode: 451 }));
        callback();
      },
      onData(stream, session: SMTPServerSession, callback) {
        simpleParser(stream)
          .then((parsed) => {
            received.push({ messageId: parsed.messageId, session: session.id });
            callback();
          })
          .catch(callback);
      },
    });
    server.on('error', () => undefined);
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends 40 messages at once over at most 4 connections', async () => {
    const sender = new MailSender(url, 4);
    const results = await Promise.all(Array.from({ length: 40 }, (_, n) => sender.send(message(`user${n}@example.com`, n))));
    sender.close();
    assert.ok(results.every((result) => result.ok));
    assert.equal(received.length, 40);
    assert.deepEqual(new Set(received.map((r) => r.messageId)).size, 40);
    assert.ok(sessions.size <= 4, `${sessions.size} connections`);
  });

  it('tells a permanent refusal from a temporary one, and sends the next message all the same', async () => {
    const sender = new MailSender(url, 1);
    const perm = await sender.send(message('perm@example.com', 100));
    const temp = await sender.send(message('temp@example.com', 101));
    const ok = await sender.send(message('ok@example.com', 102));
    sender.close();
    assert.deepEqual([perm.ok, !perm.ok && perm.permanent], [false, true]);
    assert.deepEqual([temp.ok, !temp.ok && temp.permanent], [false, false]);
    assert.equal(ok.ok, true);
  });

  it('sends on a new connection when the server closed the kept one meanwhile', async () => {
    const sender = new MailSender(url, 1);
    try {
      assert.equal((await sender.send(message('a@example.com', 200))).ok, true);
      hangUp = true;
      assert.equal((await sender.send(message('b@example.com', 201))).ok, true);
    } finally {
      sender.close();
    }
    assert.equal(hangUp, false, 'the kept connection was tried first');
    const [first, second] = received.filter((r) => r.messageId === '<200@learn.example.com>' || r.messageId === '<201@learn.example.com>');
    assert.ok(first && second && first.session !== second.session);
  });

  it('fails a message as temporary when nothing answers at the SMTP address, and does not hang', async () => {
    // a port that was free a moment ago: the connection is refused
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const sender = new MailSender(`smtp://127.0.0.1:${port}`, 2);
    try {
      const results = await Promise.all([sender.send(message('x@example.com', 300)), sender.send(message('y@example.com', 301))]);
      for (const result of results) assert.deepEqual([result.ok, !result.ok && result.permanent], [false, false]);
    } finally {
      sender.close();
    }
  });
});
