/**
 * The yardstick for Lectern's hot path: a bare node:http + better-sqlite3 server answering
 * `GET /api/v2/users/<id>/` with the same work Lectern's route does, and nothing else: the bearer
 * token hashed and looked up with its user, a per-token rate window, a request id, the user and
 * their manager read by public id, the JSON body, its strong ETag and `If-None-Match`. No router,
 * validation, error envelope or logging: what is left is the floor a framework cannot go under.
 *
 *   node --import tsx scripts/bench/_bare-server.ts FILE   prints its URL, then serves until SIGTERM
 */
import * as crypto from 'node:crypto';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';

const file = process.argv[2];
if (!file) throw new Error('usage: _bare-server.ts DATABASE_FILE');
const db = new Database(file, { readonly: true });
db.pragma('query_only = 1');

const credentials = db.prepare<[string], { user_id: number; role: string; is_active: number; expires_at: string | null }>(
  `select t.user_id, u.role, u.is_active, t.expires_at from api_tokens t join users u on u.id = t.user_id
   where t.token_hash = ? and t.revoked_at is null`,
);
const userById = db.prepare<[string], Record<string, string | number | null>>(
  `select u.public_id, u.email, u.name, u.role, u.employee_id, u.is_active, u.date_joined,
          m.public_id as manager_public_id, m.name as manager_name, m.email as manager_email
   from users u left join users m on m.id = u.manager_id where u.public_id = ?`,
);

// Node's one-shot hash where it exists (20.12 on), as Lectern hashes tokens and ETags
const sha256 = (data: string, encoding: 'hex' | 'base64url') =>
  typeof crypto.hash === 'function' ? crypto.hash('sha256', data, encoding) : crypto.createHash('sha256').update(data).digest(encoding);

const LIMIT = 1_000_000_000;
const windows = new Map<number, { start: number; used: number }>();
const path = /^\/api\/v2\/users\/([0-9a-f-]{36})\/$/;

const server = createServer((request, response) => {
  const requestId = crypto.randomUUID();
  const send = (status: number, body: string | undefined, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'X-Request-Id': requestId, ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) });
    response.end(body);
  };
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const owner = token ? credentials.get(sha256(token, 'hex')) : undefined;
  if (!owner || !owner.is_active || (owner.expires_at !== null && owner.expires_at <= new Date().toISOString())) {
    return send(401, '{"error":{"code":"unauthenticated"}}');
  }
  const now = Date.now();
  let window = windows.get(owner.user_id);
  if (!window || now - window.start >= 60_000) windows.set(owner.user_id, (window = { start: now, used: 0 }));
  window.used++;
  const rate = {
    'X-RateLimit-Limit': String(LIMIT),
    'X-RateLimit-Remaining': String(Math.max(0, LIMIT - window.used)),
    'X-RateLimit-Reset': String(Math.ceil((window.start + 60_000) / 1000)),
  };
  const id = path.exec(request.url ?? '')?.[1];
  const row = id ? userById.get(id) : undefined;
  if (!row) return send(404, '{"error":{"code":"not_found"}}', rate);
  const user = {
    public_id: row.public_id,
    email: row.email,
    name: row.name,
    role: row.role,
    employee_id: row.employee_id,
    is_active: row.is_active === 1,
    manager: row.manager_public_id ? { public_id: row.manager_public_id, name: row.manager_name, email: row.manager_email } : null,
    date_joined: new Date(row.date_joined as string).toISOString(),
  };
  const body = JSON.stringify(user);
  const etag = `"${sha256(body, 'base64url').slice(0, 27)}"`;
  if (request.headers['if-none-match'] === etag) return send(304, undefined, { ...rate, ETag: etag });
  send(200, body, { ...rate, ETag: etag });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
