/**
 * A minimal Lectern webhook receiver.
 *
 *   WEBHOOK_SECRET=whsec_… PORT=4000 node --conditions=source --import tsx examples/webhook-receiver.ts
 *
 * Then subscribe it (a local target needs `lectern serve --allow-private-webhook-targets`):
 *
 *   curl -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \
 *     -d '{"url":"http://127.0.0.1:4000/webhooks","events":["article.*"]}' \
 *     http://127.0.0.1:8080/public_api/v2/webhooks/
 *
 * and restart it with the `secret` from the answer.
 */
import { createServer } from 'node:http';
import { verifyWebhook, WebhookPayloadError, WebhookVerificationError } from '@lectern/core';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  process.stderr.write('Set WEBHOOK_SECRET to the subscription secret (whsec_…).\n');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4000);

// Delivery is at least once: a retry after a lost answer repeats the event id. Keep what was
// handled (a real receiver would use its database) and acknowledge repeats without redoing them.
const handled = new Set<string>();

const server = createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // The signature covers the raw bytes: verify before parsing, never a re-serialised object.
    const raw = Buffer.concat(chunks);
    let event: { id: string; type: string; created_at: string; data: { object: unknown } };
    try {
      event = verifyWebhook(secret, request.headers, raw) as typeof event;
    } catch (error) {
      // a forgery and a sender's malformed payload are different problems: answer them differently
      const status = error instanceof WebhookVerificationError ? 401 : error instanceof WebhookPayloadError ? 400 : 500;
      const reason = error instanceof Error && status !== 500 ? error.message : 'internal error';
      response.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
      return;
    }
    // Answer first and quickly; heavy work belongs on a queue of your own.
    response.writeHead(204).end();
    if (handled.has(event.id)) return;
    handled.add(event.id);
    process.stdout.write(`${event.created_at} ${event.type} ${event.id} ${JSON.stringify(event.data.object)}\n`);
  });
});

server.listen(port, '127.0.0.1', () => process.stdout.write(`Receiving webhooks on http://127.0.0.1:${port}/\n`));
