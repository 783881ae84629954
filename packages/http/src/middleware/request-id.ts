const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client-sent X-Request-Id is echoed when it is 1–128 safe characters, so logs can be joined. */
export function requestIdFrom(sent: string | undefined, generate: () => string): string {
  return sent !== undefined && SAFE_REQUEST_ID.test(sent) ? sent : generate();
}
