/** Sends through the configured SMTP server with nodemailer, and says whether a failure is worth retrying. */
import { randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
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

export class MailSender {
  private readonly transport: Transporter;
  // nodemailer's hook for the shared part of MIME boundaries: random once per sender and counted,
  // instead of random bytes for every message (4 % of the background thread in a burst)
  private readonly boundaryBase = randomBytes(8).toString('hex');
  private boundaries = 0;

  constructor(smtpUrl: string, connections: number) {
    // pooled: a burst of messages reuses a few connections instead of a handshake each
    this.transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections, maxMessages: Infinity });
  }

  async send(message: MailMessage): Promise<SendResult> {
    try {
      // Composed in memory first, then handed over whole: streamed straight into the socket, the
      // MIME parts went out as hundreds of small writes per message, which cost more CPU than the
      // rest of sending together.
      const mime = new MailComposer({ ...message, baseBoundary: `${this.boundaryBase}${(++this.boundaries).toString(36)}` }).compile();
      const raw = await mime.build();
      // the Message-ID given, nodemailer does not make up one (with random bytes) for the raw message
      await this.transport.sendMail({ envelope: mime.getEnvelope(), raw, messageId: message.messageId });
      return { ok: true };
    } catch (error) {
      return { ok: false, ...classifySmtpError(error) };
    }
  }

  close(): void {
    this.transport.close();
  }
}
