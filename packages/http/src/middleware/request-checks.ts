import { badRequest, LecternError } from '@lectern/core';
import { contentEncodingProblem } from '../framing.ts';
import { headerValue, MAX_BODY_BYTES } from '../plain.ts';
import { requestTargetProblem } from '../request-target.ts';
import type { CorsPolicy } from './cors.ts';
import type { Step } from './pipeline.ts';

/** Only `Expect: 100-continue` is understood (RFC 9110 §10.1.1); the server answers it before the body. */
const expectationProblem = (expect: string | undefined) =>
  expect !== undefined && expect.trim().toLowerCase() !== '100-continue' ? `The expectation '${expect}' cannot be met.` : undefined;

/**
 * The step that refuses what no route could answer, in this order: an unreadable request target
 * (400), an expectation other than 100-continue (417), a CORS preflight from an origin not allowed
 * (403), a compressed body (415), and a body over 1 MiB (413), which the server stopped reading.
 */
export const requestChecks =
  (cors: CorsPolicy): Step =>
  async (exchange, next) => {
    const { request } = exchange;
    const targetProblem = requestTargetProblem(request.url);
    if (targetProblem) throw badRequest(targetProblem);
    const expectation = expectationProblem(headerValue(request.headers, 'expect'));
    if (expectation) throw new LecternError('expectation_failed', expectation);
    if (exchange.preflight) cors.checkPreflight(headerValue(request.headers, 'origin')!);
    const encoding = contentEncodingProblem(headerValue(request.headers, 'content-encoding'));
    if (encoding) throw new LecternError('unsupported_media_type', encoding, { headers: { 'Accept-Encoding': 'identity' } });
    if (request.bodyTooLarge) {
      throw new LecternError('payload_too_large', `The request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
    }
    return next();
  };
