/**
 * The contract fuzzer: for every operation of the served OpenAPI document, requests generated from
 * the document (valid ones, and invalid ones made from them) go to a real server, and each answer
 * is held to the document. What counts as a failure, by class:
 *
 * - `server-error`: any 5xx.
 * - `undocumented-status`: a status the operation does not describe.
 * - `response-schema`: a JSON body outside the schema described for its status.
 * - `valid-refused`: a request valid by the document refused with a 4xx that is not an allowed
 *   business refusal (see `allowedRefusal`): a rule the document does not state.
 * - `invalid-accepted`: a request the document calls invalid (an unknown field where the schema is
 *   closed, a value of the wrong type or outside an enum, a malformed query parameter) answered 2xx.
 *
 * Bounded: a few examples per operation from fast-check with one seed (printed; FUZZ_SEED replays).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { contentTypeCollections } from '@lectern/core';
import { resolveRef, schemaValidators } from '../helpers/openapi-validators.ts';
import { arbitraryOf, wrongTypeValue, type GenerateContext } from './generate.ts';

type Json = Record<string, any>;

export type FindingClass = 'server-error' | 'undocumented-status' | 'response-schema' | 'valid-refused' | 'invalid-accepted';

export interface Finding {
  class: FindingClass;
  operation: string;
  request: string;
  detail: string;
}

export interface FuzzResult {
  seed: number;
  operations: number;
  requests: number;
  /** valid requests sent, answered 2xx/3xx, refused as a business rule allows; invalid requests sent */
  counts: { valid: number; accepted: number; businessRefusals: number; invalid: number };
  findings: Finding[];
  /** the valid requests refused as allowed, for a review of what the allowance lets through */
  refusals: Array<{ operation: string; status: number; message: string }>;
}

interface Operation {
  method: string;
  template: string;
  spec: Json;
}

interface PreparedRequest {
  kind: 'valid' | 'invalid';
  /** what makes it invalid, for the report */
  mutation?: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  /** the path names a resource that was seeded (a 404 then means something) */
  seededPath: boolean;
}

const VALID_PER_OPERATION = 5;
const INVALID_PER_OPERATION = 3;

/**
 * Refusals of valid-by-schema requests that are business rules, allowed when the status is described:
 * - 404: the path or a referenced public id names no resource the caller sees (random ids are
 *   valid UUIDs; a resource may have been deleted or be of another kind than the field takes);
 * - 409: the resource's state forbids the action (completing a completed assignment, deleting a
 *   group still used, an email already taken);
 * - 412: not sent (no If-Match), so never allowed — listed for completeness;
 * - 422 whose error is not `validation_error`, or whose field errors are about references and
 *   state (a referenced resource not found or of the wrong kind, a user not allowed the item,
 *   an event full, dates in the wrong order, a webhook URL Lectern may not deliver to, a timeslot
 *   without the duration its event series does not supply either): these are
 *   rules over several fields or over stored data, which a schema cannot state;
 * - 422 from a synchronous batch in which no item succeeded (`data.failed` gives each item's
 *   error: items that name no visible content item);
 * - 400 on a `cursor`: cursors are opaque tokens a list hands out; a well-formed one it never
 *   handed out is refused;
 * - 400 or 422 on a body that is not JSON (an import's CSV file): the document gives its media type,
 *   the CSV's columns are the import kind's (docs/imports.md), which a string schema cannot carry;
 * - 422 on a saved report's `expression`: RQL's grammar (docs/rql.md), which the document names
 *   but JSON Schema cannot carry; and 400 on a report's results' `ordering`, whose sortable fields
 *   are those of the report's resource, decided per report.
 */
function allowedRefusal(operation: string, status: number, body: Json | undefined, rawBody: boolean): boolean {
  if (status === 404 || status === 409) return true;
  if (rawBody && (status === 400 || status === 422)) return true;
  if (status === 400 && /'cursor'/.test(body?.error?.message ?? '')) return true;
  if (status === 400 && operation === 'GET /api/v2/saved-reports/{id}/results') return /'ordering'/.test(body?.error?.message ?? '');
  if (status !== 422) return false;
  const error = body?.error;
  if (!error) return false;
  if (error.code !== 'validation_error') return true;
  if (Array.isArray(body?.data?.failed) && body.data.succeeded?.length === 0) return true;
  if (operation.includes('/saved-reports') && Object.keys(error.field_errors ?? {}).join() === 'expression') return true;
  const messages: string[] = [...Object.values<string[]>(error.field_errors ?? {}).flat(), ...(error.non_field_errors ?? [])];
  return messages.length > 0 && messages.every((message) => businessMessage.test(message));
}
const businessMessage =
  /\bno [a-z ]+ has (this|these)\b|not found|no such|does not exist|not (visible|assignable|enrollable|allowed)|\b(on or )?(after|before|later|earlier) \w+|already|full|capacity|cannot|can't|not reachable|private|loopback|resolve|archived|deleted|inactive|itself|cycle|in the (future|past)|without an? |does not offer|no hosted media|confirm_large_removal|sets no \w+ to take instead/i;

const firstSegments = (template: string) => template.split('/{')[0]!;

/** ajv's errorsText, without an ajv instance to ask */
const errorsText = (errors: ValidateFunction['errors']) =>
  (errors ?? []).map((error) => `data${error.instancePath} ${error.message}`).join(', ') || 'No errors';

export class ContractFuzzer {
  /** the run's precompiled response validators, and the rest compiled once each against one copy of the components */
  private readonly validator: (schema: Json) => ValidateFunction;
  private readonly operations: Operation[];
  /** public ids created while seeding, by the collection path that created them */
  private readonly seeds = new Map<string, string[]>();
  private readonly findings: Finding[] = [];
  private readonly refusals: FuzzResult['refusals'] = [];
  private requests = 0;
  private readonly counts = { valid: 0, accepted: 0, businessRefusals: 0, invalid: 0 };

  constructor(
    private readonly doc: Json,
    private readonly baseUrls: readonly string[],
    private readonly token: string,
    private readonly seed: number,
    private readonly log: (line: string) => void,
  ) {
    this.validator = schemaValidators(doc);
    this.operations = Object.entries<Json>(doc.paths).flatMap(([template, ops]) =>
      Object.entries<Json>(ops).map(([method, spec]) => ({ method: method.toUpperCase(), template, spec })),
    );
  }

  async run(): Promise<FuzzResult> {
    await this.seedResources();
    // deletions last, so the other operations find the seeded resources
    const ordered = [...this.operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const [index, operation] of ordered.entries()) await this.fuzzOperation(operation, index);
    return {
      seed: this.seed,
      operations: this.operations.length,
      requests: this.requests,
      counts: this.counts,
      findings: this.findings,
      refusals: this.refusals,
    };
  }

  // ---- seeding -------------------------------------------------------------------------------

  /** Each content type's own collection, in core's order (tracks and collections last: they hold items). */
  private static readonly contentCollections = Object.values(contentTypeCollections).map((collection) => `/api/v2/${collection}`);

  /** The order creations run in: what later creations refer to first. */
  private static readonly seedOrder = [
    '/api/v2/users',
    '/api/v2/groups',
    '/api/v2/channels',
    '/api/v2/locations',
    ...ContractFuzzer.contentCollections,
    '/api/v2/event-series',
    '/api/v2/events',
    '/api/v2/assignments',
    '/api/v2/enrollments',
  ];

  private async seedResources(): Promise<void> {
    const creators = this.operations.filter(
      (op) =>
        (op.method === 'POST' || (op.method === 'PATCH' && op.template.endsWith('/bulk'))) &&
        !op.template.includes('{') &&
        op.spec.requestBody?.content?.['application/json'],
    );
    const rank = (op: Operation) => {
      const at = ContractFuzzer.seedOrder.indexOf(op.template);
      return at === -1 ? ContractFuzzer.seedOrder.length : at;
    };
    creators.sort((a, b) => rank(a) - rank(b));
    for (const op of creators) {
      const schema = op.spec.requestBody.content['application/json'].schema;
      const bodies = fc.sample(this.bodyArbitrary(schema), { seed: this.seed + 7 * this.requests, numRuns: 12 });
      let made = 0;
      for (const body of bodies) {
        const response = await this.send(op.method, op.template, {}, body);
        const id = response.body?.public_id ?? response.body?.id;
        if (response.status >= 200 && response.status < 300 && (typeof id === 'string' || typeof id === 'number')) {
          const ids = this.seeds.get(op.template) ?? [];
          ids.push(String(id));
          this.seeds.set(op.template, ids);
          if (++made === 2) break;
        }
      }
      this.log(`seeded ${op.method} ${op.template}: ${made}`);
    }
  }

  /** The seeded ids a field name refers to. */
  private poolFor(field: string | undefined): string[] {
    const all = (...collections: string[]) => collections.flatMap((c) => this.seeds.get(c) ?? []);
    const content = () => all(...ContractFuzzer.contentCollections);
    const byField: Record<string, () => string[]> = {
      user: () => all('/api/v2/users'),
      manager: () => all('/api/v2/users'),
      organizer: () => all('/api/v2/users'),
      facilitator: () => all('/api/v2/users'),
      member: () => all('/api/v2/users'),
      owner: () => all('/api/v2/users'),
      group: () => all('/api/v2/groups'),
      channel: () => all('/api/v2/channels'),
      location: () => all('/api/v2/locations'),
      event_series: () => all('/api/v2/event-series'),
      series: () => all('/api/v2/event-series'),
      event: () => all('/api/v2/events'),
      content: content,
      item: content,
    };
    const key = field
      ?.replace(/_ids?$/, '')
      .replace(/s$/, '')
      .replace(/^co_/, '');
    const pool = key ? (byField[key]?.() ?? (key === 'public_id' ? content() : undefined)) : undefined;
    return pool ?? [...this.seeds.values()].flat();
  }

  private generateContext(): GenerateContext {
    return { doc: this.doc, pool: (field) => this.poolFor(field) };
  }

  /** A seeded id for the resource a path's `{id}` names. */
  private pathIds(template: string): string[] {
    const collection = firstSegments(template);
    if (collection === '/api/v2/content-items') return this.poolFor('content_item');
    return this.seeds.get(collection) ?? [];
  }

  // ---- one operation -------------------------------------------------------------------------

  private parameters(op: Operation): Json[] {
    return (op.spec.parameters ?? []).map((p: Json) => resolveRef(this.doc, p));
  }

  private async fuzzOperation(op: Operation, index: number): Promise<void> {
    const seed = this.seed + index * 1009;
    const ctx = this.generateContext();
    const parameters = this.parameters(op).filter((p) => p.in === 'query');
    const bodySchema = op.spec.requestBody?.content?.[this.mediaTypeOf(op)]?.schema;
    const ids = this.pathIds(op.template);
    const hasPathId = op.template.includes('{');

    const queryArb = fc.record(
      Object.fromEntries(
        parameters.map((p) => [
          p.name,
          p.required ? arbitraryOf(p.schema, ctx, p.name) : fc.option(arbitraryOf(p.schema, ctx, p.name), { nil: undefined, freq: 2 }),
        ]),
      ) as Record<string, fc.Arbitrary<unknown>>,
    );
    const requestArb = fc.record({
      id: ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid(),
      query: queryArb,
      body: bodySchema ? this.bodyArbitrary(bodySchema) : fc.constant(undefined),
    });
    const samples = fc.sample(requestArb, { seed, numRuns: VALID_PER_OPERATION + INVALID_PER_OPERATION });

    for (const [n, sample] of samples.entries()) {
      const valid: PreparedRequest = {
        kind: 'valid',
        path: op.template.replace(/\{[^}]+\}/g, sample.id),
        query: serializeQuery(sample.query as Record<string, unknown>),
        body: sample.body,
        seededPath: !hasPathId || ids.length > 0,
      };
      const request = n < VALID_PER_OPERATION ? valid : this.invalidFrom(op, valid, bodySchema, parameters, n);
      if (!request) continue;
      await this.check(op, request);
    }
  }

  /** An invalid request made from a valid one, or undefined when the operation takes nothing to spoil. */
  private invalidFrom(
    op: Operation,
    valid: PreparedRequest,
    bodySchema: Json | undefined,
    parameters: Json[],
    n: number,
  ): PreparedRequest | undefined {
    const options: Array<() => PreparedRequest | undefined> = [];
    const body = valid.body;
    if (bodySchema) {
      const schema = resolveRef(this.doc, bodySchema);
      if (schema.additionalProperties === false) {
        options.push(() => ({ ...valid, kind: 'invalid', mutation: 'unknown field', body: { ...(body as Json), fuzz_unknown_field: 1 } }));
      }
      for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
        const wrong = wrongTypeValue(property, this.doc);
        if (wrong !== undefined) {
          options.push(() => ({ ...valid, kind: 'invalid', mutation: `${name}: wrong type`, body: { ...(body as Json), [name]: wrong } }));
        }
        if (resolveRef(this.doc, property).enum) {
          options.push(() => ({
            ...valid,
            kind: 'invalid',
            mutation: `${name}: not in enum`,
            body: { ...(body as Json), [name]: 'not-a-value' },
          }));
        }
      }
      options.push(() => ({ ...valid, kind: 'invalid', mutation: 'body not an object', body: ['not', 'an', 'object'] }));
    }
    for (const p of parameters) {
      const schema = resolveRef(this.doc, p.schema);
      const bad =
        schema.enum ||
        schema.items?.enum ||
        ['boolean', 'integer'].includes(schema.type) ||
        schema.format === 'uuid' ||
        schema.items?.format === 'uuid'
          ? 'not-a-value'
          : undefined;
      if (bad) options.push(() => ({ ...valid, kind: 'invalid', mutation: `?${p.name}=${bad}`, query: { ...valid.query, [p.name]: bad } }));
    }
    if (options.length === 0) return undefined;
    const made = options[(n * 7 + op.template.length) % options.length]!();
    // keep only what the document really calls invalid
    if (made?.body !== undefined && bodySchema && made.mutation && !made.mutation.startsWith('?') && this.validator(bodySchema)(made.body))
      return undefined;
    return made;
  }

  private async check(op: Operation, request: PreparedRequest): Promise<void> {
    const response = await this.send(op.method, request.path, request.query, request.body, this.mediaTypeOf(op));
    const name = `${op.method} ${op.template}`;
    const shown = `${request.kind}${request.mutation ? ` (${request.mutation})` : ''}: ${op.method} ${request.path}${queryString(request.query)}${
      request.body !== undefined ? ` ${JSON.stringify(request.body).slice(0, 300)}` : ''
    } → ${response.status} ${response.text.slice(0, 1200)}`;
    const fail = (kind: FindingClass, detail: string) => this.findings.push({ class: kind, operation: name, request: shown, detail });

    if (response.status >= 500) fail('server-error', `status ${response.status}`);
    const described = op.spec.responses[String(response.status)] ?? op.spec.responses.default;
    if (!described) {
      fail('undocumented-status', `status ${response.status} is not described (${Object.keys(op.spec.responses).join(', ')})`);
    } else {
      const schema = resolveRef(this.doc, described).content?.['application/json']?.schema;
      if (schema && response.body !== undefined) {
        const validate = this.validator(schema);
        if (!validate(response.body)) fail('response-schema', errorsText(validate.errors?.slice(0, 4)));
      }
    }
    this.counts[request.kind]++;
    if (request.kind === 'valid' && response.status < 400) this.counts.accepted++;
    if (request.kind === 'valid' && response.status >= 400 && response.status < 500) {
      const unseeded404 = response.status === 404 && !request.seededPath;
      this.counts.businessRefusals++;
      this.refusals.push({
        operation: name,
        status: response.status,
        message: JSON.stringify(response.body?.error ?? response.text).slice(0, 300),
      });
      if (!unseeded404 && !allowedRefusal(name, response.status, response.body, this.mediaTypeOf(op) !== 'application/json'))
        fail('valid-refused', `status ${response.status}`);
    }
    if (request.kind === 'invalid' && response.status < 400) fail('invalid-accepted', `status ${response.status}`);
  }

  /**
   * Bodies valid by `schema`: the generator covers types, formats, bounds and required fields; what
   * it does not model (`anyOf` over an object's fields, say) is checked by ajv on what it made.
   */
  private bodyArbitrary(schema: Json): fc.Arbitrary<unknown> {
    const validate = this.validator(schema);
    return arbitraryOf(schema, this.generateContext()).filter((body) => validate(body));
  }

  /** the request body's media type: JSON unless the document says otherwise */
  private mediaTypeOf(op: Operation): string {
    return Object.keys(op.spec.requestBody?.content ?? {})[0] ?? 'application/json';
  }

  private async send(method: string, path: string, query: Record<string, string>, body: unknown, mediaType = 'application/json') {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = mediaType;
    const raw = mediaType !== 'application/json' && typeof body === 'string';
    const url = this.baseUrls[this.requests++ % this.baseUrls.length] + path + queryString(query);
    const init = { method, headers, body: body === undefined ? undefined : raw ? body : JSON.stringify(body) };
    const response = await fetch(url, init).catch(async (error: unknown) => {
      // A kept-alive connection the server closed after its idle timeout while this process was
      // busy generating requests (a loaded machine can hold its event loop longer than that): the
      // request never reached the server, so it is sent again, once, on a new connection.
      if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
      return fetch(url, init);
    });
    const text = await response.text();
    let parsed: Json | undefined;
    try {
      // application/json only: a list exported as application/x-ndjson is lines of JSON, not one document
      parsed =
        text.length > 0 && (response.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, text, body: parsed };
  }
}

/** Query values as a client sends them: arrays comma-separated (`style: form, explode: false`). */
function serializeQuery(values: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    query[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return query;
}

const queryString = (query: Record<string, string>) => {
  const params = new URLSearchParams(query).toString();
  return params ? `?${params}` : '';
};
