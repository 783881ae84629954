/**
 * What a route handler sees of its request (router.ts RouteContext): the caller, the parameters
 * and query, the headers, and the body read as JSON or as a stream.
 */
import { badRequest, LecternError, type Actor, type RequestContext } from '@lectern/core';
import type { OperationSpec } from './operation-spec.ts';
import { headerValue, type PlainRequest } from './plain.ts';
import type { RouteContext } from './router.ts';

/** The caller a request names, or why it names none (answered only where a route requires one). */
export type Authentication = { actor: Actor; error?: undefined } | { actor?: undefined; error: LecternError };

export class RequestState implements RouteContext {
  params: Record<string, string> = {};
  route?: string;
  spec?: OperationSpec;
  path?: string;
  private context?: RequestContext;
  private parameters?: URLSearchParams;

  constructor(
    private readonly auth: Authentication,
    readonly requestId: string,
    private readonly parseQuery: () => URLSearchParams,
    private readonly request: PlainRequest,
  ) {}

  get query(): URLSearchParams {
    return (this.parameters ??= this.parseQuery());
  }

  get ctx(): RequestContext {
    if (this.auth.error) throw this.auth.error;
    return (this.context ??= { actor: this.auth.actor, requestId: this.requestId });
  }

  header(name: string): string | undefined {
    return headerValue(this.request.headers, name);
  }

  get preconditions(): { ifMatch: string | undefined } {
    return { ifMatch: this.header('if-match') };
  }

  async *bodyStream(maxBytes: number): AsyncIterable<Buffer> {
    const tooLarge = () => new LecternError('payload_too_large', `The request body exceeds the limit of ${maxBytes} bytes.`);
    if (Number(this.header('content-length')) > maxBytes) throw tooLarge();
    let size = 0;
    for await (const chunk of this.request.bodyStream ?? (this.request.body ? [this.request.body] : [])) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      yield chunk;
    }
  }

  body<Unvalidated>(): Unvalidated {
    const raw = this.request.body;
    if (!raw || raw.length === 0) return {} as Unvalidated;
    let text: string;
    try {
      text = strictUtf8.decode(raw);
    } catch {
      // decoding leniently would store U+FFFD in place of the bytes sent: the data silently altered
      throw badRequest('The request body is not valid UTF-8.');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('The request body must be a JSON object.');
    }
    if (nestingDepthExceeds(parsed, MAX_BODY_DEPTH)) {
      throw badRequest(`The request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep.`);
    }
    return parsed as Unvalidated;
  }
}

/** JSON is UTF-8 (RFC 8259 §8.1); a byte-order mark is kept, so JSON.parse refuses it as before. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** No request the API describes comes close; a deeper body is an attack on whatever walks it. */
export const MAX_BODY_DEPTH = 64;

/** Whether `value` nests deeper than `limit`, found with a stack: the walk itself must not recurse. */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) pending.push({ value: item, depth: depth + 1 });
  }
  return false;
}
