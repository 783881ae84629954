import type { Refusal } from './plain.ts';

/**
 * What to answer a request Node's parser rejected or timed out, by the parser's error code. The
 * codes are llhttp's (`HPE_*`) and Node's own timeout; anything else is malformed HTTP.
 */
export function clientErrorRefusal(error: { code?: string; reason?: string }): Omit<Refusal, 'remoteAddress'> {
  const { code } = error;
  const reason = code ?? 'unknown';
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'The request headers are too large.', reason };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload_too_large', message: 'The chunk extensions of the request body are too large.', reason };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request was not received in time; the connection is closed.', reason };
    case 'HPE_INVALID_METHOD':
      return { code: 'bad_request', message: 'The request method is not recognised.', reason };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { code: 'bad_request', message: 'The request body is framed wrongly (Content-Length and Transfer-Encoding).', reason };
    default:
      // llhttp's reasons are fixed texts ("Invalid char in url path"), safe to repeat
      return { code: 'bad_request', message: `The request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ''}.`, reason };
  }
}
