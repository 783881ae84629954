import type { IncomingMessage } from 'node:http';
import type { Refusal } from './plain.ts';

/**
 * Framing the parser lets through but the HTTP/1.1 rules refuse, checked once the headers are in
 * and before any of the body is read.
 *
 * - More than one `Host` (RFC 9112 §3.2): 400. Node keeps the first and drops the rest, so a proxy
 *   that routed on another would disagree with this server about the request's target.
 * - A transfer coding other than `chunked` (RFC 9112 §6.1, RFC 9110 §15.6.2): 501. The parser
 *   removes the chunked framing only, so `gzip, chunked` would reach a route as compressed bytes.
 */
export function framingRefusal(request: IncomingMessage): Omit<Refusal, 'remoteAddress'> | undefined {
  let hosts = 0;
  const raw = request.rawHeaders;
  for (let at = 0; at < raw.length; at += 2) if (raw[at]!.length === 4 && raw[at]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) {
    return { code: 'bad_request', message: 'The request carries more than one Host header.', reason: 'duplicate_host' };
  }
  const codings = request.headers['transfer-encoding'];
  if (codings !== undefined && codings.split(',').some((coding) => coding.trim().toLowerCase() !== 'chunked')) {
    return {
      code: 'not_implemented',
      message: "The only transfer coding this server understands is 'chunked'.",
      reason: 'transfer_coding',
    };
  }
  return undefined;
}

/**
 * A request body is read as the bytes sent: a compressed one (RFC 9110 §8.4) is refused with 415
 * rather than parsed as if it were plain, and the answer names what would be accepted
 * (`Accept-Encoding`, RFC 9110 §12.5.3). Decoding it would need a second, decompressed size limit
 * for a gain only large uploads would see.
 */
export function contentEncodingProblem(contentEncoding: string | undefined): string | undefined {
  if (contentEncoding === undefined) return undefined;
  const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === 'identity' || coding === '')) return undefined;
  return `A request body with Content-Encoding '${contentEncoding}' is not accepted: send it uncompressed.`;
}
