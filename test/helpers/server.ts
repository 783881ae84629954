/**
 * Starts the real `lectern serve` (the built bundle) on a temporary database and port 0, and
 * offers a small fetch client. Black-box tests use only this and HTTP.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertAuditLogHoldsNoSecrets } from './audit-scan.ts';
import { checkConformance } from './openapi-conformance.ts';
import { freshPostgresDatabase } from './postgres.ts';

export const repoRoot = new URL('../../', import.meta.url).pathname;
export const lecternBin = join(repoRoot, 'packages/cli/bin/lectern.cjs');

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** raw body text, sent as is */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** overrides the client's token; null sends no Authorization header */
  token?: string | null;
}

/** The servers a client sends to: one, or several sharing a database, taken in turn request by request. */
class Targets {
  private next = 0;
  constructor(readonly urls: readonly string[]) {}
  take(): string {
    return this.urls[this.next++ % this.urls.length]!;
  }
}

/**
 * How each server the tests started ended, by its origin, told with a request it refused: a
 * refused connection (ECONNREFUSED) in a long file said nothing of whether the server had crashed,
 * been killed by the test or never listened there.
 */
const endings = new Map<string, string>();

/** `error` (a refused connection to `url`), saying how the server there ended, if it has. */
function withEnding(error: NodeJS.ErrnoException, url: string): NodeJS.ErrnoException {
  const origin = new URL(url).origin;
  error.message += `; the server at ${origin} ${endings.get(origin) ?? 'has not exited'}`;
  return error;
}

// Bounded: a server takes at most 100 connections from one address (--max-connections-per-address)
// and refuses the next, and a test's own fetch() calls share that address with this client.
const agent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });

/**
 * One request over node:http with kept-alive connections, answered as fetch would (status, Headers,
 * text). The black-box files send tens of thousands of requests, and the test process's fetch
 * (undici: web streams, a destroy hook and a transferable per request) cost more CPU than the
 * server answering them: 15 of robustness.test.ts's 19 CPU-seconds.
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  retried = false,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    // said outright: node:http sends a DELETE's body only with a length
    const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const request = httpRequest(url, { method, headers: sized, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const answered = new Headers();
        const raw = response.rawHeaders;
        for (let i = 0; i < raw.length; i += 2) answered.append(raw[i]!, raw[i + 1]!);
        resolve({ status: response.statusCode!, headers: answered, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.once('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as idle (its keep-alive timeout) just as this
      // request went out on it: the server read none of it, so it is sent again, once, on another.
      if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) send(url, method, headers, body, true).then(resolve, reject);
      else reject(error.code === 'ECONNREFUSED' ? withEnding(error, url) : error);
    });
    request.end(body);
  });
}

export class ApiClient {
  private readonly targets: Targets;

  constructor(
    targets: string | Targets,
    readonly token: string | null,
  ) {
    this.targets = typeof targets === 'string' ? new Targets([targets]) : targets;
  }

  /** the first server's address */
  get baseUrl(): string {
    return this.targets.urls[0]!;
  }

  /** the same servers, taken in the same turn, with another token */
  withToken(token: string | null): ApiClient {
    return new ApiClient(this.targets, token);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await send(this.targets.take() + path, method, headers, body);
    const text = response.text;
    let parsed: any = undefined;
    if (text.length > 0) parsed = JSON.parse(text);
    // every response must match the served API description (see openapi-conformance.ts)
    checkConformance(method, path, response.status, response.headers, parsed);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, { ...options, body });
  }
}

export interface TestServer {
  /** the first server's address; `api` alternates between every server's */
  url: string;
  /** every server's address (several when they share a PostgreSQL database) */
  urls: string[];
  /** the bootstrap admin token */
  adminToken: string;
  api: ApiClient;
  dbFile: string;
  /** the first server's process */
  process: ChildProcess;
  /** every server's output, interleaved */
  output(): string;
  /** resolves once the server's output matches (log lines arrive after the responses they describe) */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM every server and wait for them to exit; resolves with the first nonzero exit code, else 0 */
  stop(): Promise<number | null>;
  kill(): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  /** reuse an existing database file (e.g. after a restart) */
  dbFile?: string;
  /**
   * How many servers share the database, requests alternating between them: by default two on
   * PostgreSQL (LECTERN_TEST_DATABASE=postgres), one on SQLite. A test about one process sets 1.
   */
  instances?: number;
  /**
   * `--instance-id` of each server in turn; by default `test-1`, `test-2`…, stable across restarts
   * as a server's host and port are in production, so a restart takes back at once what it held
   */
  instanceIds?: string[];
}

const tempDirs: string[] = [];
const running = new Set<ChildProcess>();
// A failed assertion can skip a test's stop(): such servers must neither keep the test process
// alive (their pipes are unref'd) nor outlive it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder removed when the test process exits. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-test-'));
  tempDirs.push(dir);
  return dir;
}

const onPostgres = process.env.LECTERN_TEST_DATABASE === 'postgres';

/**
 * A new database file for a server: a copy of the one scripts/run-tests.mjs migrated once for the
 * run (scripts/run-fixtures.mjs), else a path where `serve` creates and migrates one. Tests of
 * migrating name their own file (`dbFile`), so they still start from nothing.
 */
function migratedSqliteFile(): string {
  const file = join(tempDir(), 'lectern.db');
  const template = process.env.LECTERN_TEST_SQLITE_TEMPLATE;
  if (template) copyFileSync(template, file);
  return file;
}

interface Instance {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/**
 * How long a server may take to print its address before the test fails with its output. It only
 * turns a hung start into a failure that says so; how fast a server starts is no test's business
 * (no timing assertions), and on a machine shared by test files running side by side, or by other
 * work, healthy starts took over 15 s (the deadline this replaces).
 */
const startDeadlineMs = 60_000;

/** Spawns `lectern serve` and resolves once it listens; its output is added to `sink`. */
async function spawnInstance(dbFile: string, options: StartOptions, index: number, sink: { output: string }): Promise<Instance> {
  let own = '';
  const id = options.instanceIds?.[index] ?? `test-${index + 1}`;
  const args = ['serve', '--db', dbFile, '--port', '0', '--instance-id', id, ...(options.args ?? [])];
  const child = spawn(process.execPath, [lecternBin, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    own += chunk;
    sink.output += chunk;
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  child.unref();
  (child.stdout as unknown as { unref(): void }).unref();
  (child.stderr as unknown as { unref(): void }).unref();

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${startDeadlineMs / 1000} s:\n${own}`)), startDeadlineMs);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(own);
      if (match) {
        clearTimeout(timer);
        // not searched again at every later chunk of a server that logs for minutes
        child.stdout!.off('data', check);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${own}`)));
  });
  const ended = () =>
    endings.set(new URL(url).origin, `exited (${child.signalCode ?? `code ${child.exitCode}`}); its output ends:\n${own.slice(-4000)}`);
  if (child.exitCode !== null || child.signalCode !== null) ended();
  else child.once('exit', ended);
  return { child, url, exited };
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  // LECTERN_TEST_DATABASE=postgres runs the black-box tests on PostgreSQL: a fresh database each
  // (its URL stands where the file would, so a restart reuses it)
  const dbFile = options.dbFile ?? (onPostgres ? await freshPostgresDatabase({ migrated: true }) : migratedSqliteFile());
  const count = options.instances ?? (onPostgres ? 2 : 1);
  const sink = { output: '' };
  const waitForOutput = async (pattern: RegExp, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(sink.output)) {
      if (Date.now() > deadline) throw new Error(`output never matched ${pattern}:\n${sink.output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const token = /lpat_[0-9A-Za-z]{43}/;
  // one after the other: the first creates the schema and prints the bootstrap token
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < count; i++) instances.push(await spawnInstance(dbFile, options, i, sink));
    // A fresh database's first server prints the bootstrap token on stderr before its address on
    // stdout, but the two pipes are read in whatever order they arrive: under load the address
    // came first and the tests ran with an empty token. So the token is waited for here.
    if (options.dbFile === undefined) await waitForOutput(token, 10_000);
  } catch (error) {
    for (const instance of instances) instance.child.kill('SIGKILL');
    throw error;
  }
  const first = instances[0]!;
  const urls = instances.map((instance) => instance.url);
  const adminToken = token.exec(sink.output)?.[0] ?? '';
  const exitAll = async (signal: NodeJS.Signals) => {
    const codes = await Promise.all(
      instances.map(async ({ child, exited }) => {
        if (child.exitCode !== null) return child.exitCode;
        child.ref(); // keep the test process alive until the server has exited
        child.kill(signal);
        return exited;
      }),
    );
    return codes.find((code) => code !== 0) ?? 0;
  };

  return {
    url: first.url,
    urls,
    adminToken,
    api: new ApiClient(new Targets(urls), adminToken),
    dbFile,
    process: first.child,
    output: () => sink.output,
    waitForOutput,
    stop: () => exitAll('SIGTERM'),
    async kill() {
      await exitAll('SIGKILL');
    },
  };
}

/**
 * One server for the enclosing `describe` block: started before its tests (node:test `before`),
 * stopped after them. The returned object stands for the server once it has started; `options`
 * may be a function when they depend on what earlier hooks prepared.
 */
export function useServer(options: StartOptions | (() => StartOptions) = {}): TestServer {
  let server: TestServer | undefined;
  before(async () => {
    server = await startServer(typeof options === 'function' ? options() : options);
  });
  after(async () => {
    try {
      if (server) await assertAuditLogHoldsNoSecrets(server.dbFile);
    } finally {
      await server?.stop();
    }
  });
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!server) throw new Error('useServer(): the server starts in the before hook; use it inside tests and hooks');
      const value = Reflect.get(server, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(server) : value;
    },
  });
}

/** Runs the `lectern` CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lecternBin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI with `--json`, failing with its stderr unless it exits 0, and answers what it printed. */
export async function runCliJson(args: string[]): Promise<any> {
  const run = await runCli([...args, '--json']);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** A token issued by the CLI (`tokens create`) for `email`, with any further options (`--role`, `--scopes`): what it printed. */
export function cliToken(dbFile: string, email: string, name: string, ...options: string[]): Promise<any> {
  return runCliJson(['tokens', 'create', '--db', dbFile, '--email', email, '--name', name, ...options]);
}

let counter = 0;
/** A unique email per call, so tests sharing a server never collide. */
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${counter++}@example.com`;

/** Creates a user of `role` (through the admin API) and a token for it (through the CLI). */
export async function userWithToken(server: TestServer, role: 'admin' | 'organizer' | 'user', scopes?: string) {
  const email = uniqueEmail(role);
  const created = await server.api.post('/api/v2/users/', { email, name: `${role} person`, role });
  if (created.status !== 201) throw new Error(`creating the ${role} failed: ${created.text}`);
  const issued = await cliToken(server.dbFile, email, 'test', ...(scopes ? ['--scopes', scopes] : []));
  return { user: created.body, token: issued.token as string, api: server.api.withToken(issued.token) };
}

/** An error response with this status and `error.code`. */
/** POSTs `body` to `path` and answers what the API made (any 2xx), failing with its answer otherwise. */
export async function created(api: ApiClient, path: string, body: unknown): Promise<any> {
  const response = await api.post(path, body);
  assert.ok(response.status >= 200 && response.status < 300, `${path}: ${response.status} ${response.text}`);
  return response.body;
}

/** A new person assigned a new article: the assignment's answer (a 201, checked) and the two records made for it. */
export async function assignedArticle(api: ApiClient, { email = uniqueEmail('learner'), article: name = 'Assigned article' } = {}) {
  const user = await created(api, '/api/v2/users/', { email, name: 'Learner' });
  const article = await created(api, '/api/v2/articles/', { name });
  const assigned = await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: article.public_id });
  assert.equal(assigned.status, 201, assigned.text);
  return { user, article, assigned };
}

export function expectError(response: ApiResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.error.code, code, response.text);
}

/** A 422 `validation_error` naming `field` in `field_errors`. */
export function expectFieldError(response: ApiResponse, field: string): void {
  expectError(response, 422, 'validation_error');
  assert.ok(response.body.error.field_errors[field], `expected a field error on ${field}: ${response.text}`);
}
