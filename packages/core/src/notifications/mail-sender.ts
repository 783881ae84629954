/** Sends through the configured SMTP server with nodemailer, and says whether a failure is worth retrying. */
import { randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage } from './mail-message.ts';
import { composeMime } from './mime-message.ts';

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
  // MIME boundaries: random once per sender, then counted, rather than random bytes per message
  private readonly boundaryToken = `=_lectern_${randomBytes(12).toString('hex')}`;
  private boundaries = 0;

  constructor(smtpUrl: string, connections: number) {
    // pooled: a burst of messages reuses a few connections instead of a handshake each
    this.transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections, maxMessages: Infinity });
  }

  async send(message: MailMessage): Promise<SendResult> {
    try {
      // Composed in memory first (mime-message.ts), then handed over whole: streamed straight into
      // the socket, the MIME parts went out as hundreds of small writes per message.
      const { envelope, raw } = composeMime(message, { boundary: `${this.boundaryToken}_${++this.boundaries}`, date: new Date() });
      await this.transport.sendMail({ envelope, raw });
      return { ok: true };
    } catch (error) {
      return { ok: false, ...classifySmtpError(error) };
    }
  }

  close(): void {
    this.transport.close();
  }
}
