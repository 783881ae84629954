/**
 * A Lectern HTTP server for the audit benchmark: `node --import tsx _audit-server.ts <db file> on|off`.
 * The only way to run one with the audit log turned off (config `audit.enabled`): `lectern serve`
 * offers no such setting. Prints its URL and the bootstrap admin's token as one JSON line.
 */
import { createLectern } from '@lectern/core';
import { createApp, listen } from '@lectern/http';
import { openSqliteStorage } from '@lectern/storage';

const [file, mode] = process.argv.slice(2);
const lectern = createLectern({ storage: await openSqliteStorage({ file: file! }), config: { audit: { enabled: mode === 'on' } } });
const admin = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!;
await lectern.start();
const listening = await listen(createApp(lectern, { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } }), {
  port: 0,
  host: '127.0.0.1',
});
process.stdout.write(`${JSON.stringify({ url: listening.url, token: admin.token.token, user: admin.user.public_id })}\n`);
process.once('SIGTERM', () => void listening.close().then(() => lectern.close()));
