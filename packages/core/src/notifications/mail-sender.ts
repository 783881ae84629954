/** Sends through the configured SMTP server with nodemailer, and says whether a failure is worth retrying. */
import { randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { MailMessage } from './mail-message.ts';

export type SendResult = { ok: true } | { ok: false; permanent: boolean; error: string };

/**
 * A 5xx reply is the server refusing the message for good (unknown mailbox, rejected content); a
 * 4xx reply, a refused connection or a timeout may pass later.
 */
export function classifySmtpError(error: unknown): { permanent: boolean; error: string } {
  const responseCode = (error as { responseCode?: unknown }).responseCode;
  const message = error instanceof Error ? error.message : String(error);
  return { permanent: typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600, error: message.slice(0, 1000) };
}

/**
 * A few SMTP connections (nodemailer's SMTPConnection: TLS, STARTTLS, AUTH, dot-stuffing), reused
 * for message after message. nodemailer's pooled transport did the same, but took each composed
 * message through its Mailer again (a second MIME tree for the raw bytes, streamed): a tenth of
 * the background thread's time in a burst.
 */
export class MailSender {
  private readonly options: SMTPConnection.Options;
  private readonly idle: SMTPConnection[] = [];
  private readonly waiting: Array<() => void> = [];
  /** how each open connection leaves the count, once, whichever way it ends */
  private readonly drops = new Map<SMTPConnection, () => void>();
  private opened = 0;
  private closed = false;
  // nodemailer's hook for the shared part of MIME boundaries: random once per sender and counted,
  // instead of random bytes for every message (4 % of the background thread in a burst)
  private readonly boundaryBase = randomBytes(8).toString('hex');
  private boundaries = 0;

  constructor(
    smtpUrl: string,
    private readonly connections: number,
  ) {
    this.options = parseConnectionUrl(smtpUrl);
  }

  async send(message: MailMessage): Promise<SendResult> {
    try {
      // Composed in memory first, then handed over whole: streamed straight into the socket, the
      // MIME parts went out as hundreds of small writes per message, which cost more CPU than the
      // rest of sending together.
      const mime = new MailComposer({ ...message, baseBoundary: `${this.boundaryBase}${(++this.boundaries).toString(36)}` }).compile();
      const raw = await mime.build();
      const envelope = mime.getEnvelope();
      const reused = this.idle.length > 0;
      try {
        await this.deliver(envelope, raw);
      } catch (error) {
        // a kept connection the server closed meanwhile fails without a reply: once more on a new one
        if (!reused || typeof (error as { responseCode?: unknown }).responseCode === 'number') throw error;
        await this.deliver(envelope, raw);
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, ...classifySmtpError(error) };
    }
  }

  private async deliver(envelope: SMTPConnection.Envelope, raw: Buffer): Promise<void> {
    const connection = await this.acquire();
    try {
      await new Promise<void>((resolve, reject) => connection.send(envelope, raw, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      // after a refusal or a broken exchange the connection's state is unknown: it is not reused
      this.discard(connection);
      throw error;
    }
    this.release(connection);
  }

  private async acquire(): Promise<SMTPConnection> {
    for (;;) {
      const idle = this.idle.pop();
      if (idle) return idle;
      if (this.opened < this.connections) break;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.opened++;
    const connection = new SMTPConnection(this.options);
    let gone = false;
    const drop = () => {
      if (gone) return;
      gone = true;
      this.drops.delete(connection);
      const at = this.idle.indexOf(connection);
      if (at >= 0) this.idle.splice(at, 1);
      this.opened--;
      this.waiting.shift()?.();
    };
    this.drops.set(connection, drop);
    // an error between messages (the server hung up) only ends the connection
    connection.on('error', () => connection.close());
    connection.once('end', drop);
    try {
      await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
      // parseConnectionUrl puts user and password from the URL here
      const { auth } = this.options as { auth?: SMTPConnection.Credentials };
      if (auth) await new Promise<void>((resolve, reject) => connection.login(auth, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      this.discard(connection);
      throw error;
    }
    return connection;
  }

  private release(connection: SMTPConnection): void {
    if (this.closed) return connection.quit();
    this.idle.push(connection);
    this.waiting.shift()?.();
  }

  private discard(connection: SMTPConnection): void {
    connection.close();
    this.drops.get(connection)?.();
  }

  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.quit();
  }
}
