/**
 * A SCIM client for the black-box tests: `/scim/v2` is not the v2 API, so its answers are checked
 * against SCIM's rules by the tests themselves rather than against the OpenAPI document.
 */
import assert from 'node:assert/strict';
import type { TestServer } from './server.ts';

export interface ScimResponse {
  status: number;
  headers: Headers;
  body: any;
}

export class ScimClient {
  private next = 0;

  constructor(
    private readonly urls: readonly string[],
    readonly token: string | null,
  ) {}

  static of(server: TestServer, token: string | null): ScimClient {
    return new ScimClient(server.urls, token);
  }

  withToken(token: string | null): ScimClient {
    return new ScimClient(this.urls, token);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ScimResponse> {
    const sent: Record<string, string> = { ...headers };
    if (this.token !== null) sent.authorization = `Bearer ${this.token}`;
    if (body !== undefined) sent['content-type'] ??= 'application/scim+json';
    const url = this.urls[this.next++ % this.urls.length]! + '/scim/v2' + path;
    const response = await fetch(url, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const parsed = text.length > 0 ? JSON.parse(text) : undefined;
    if (text.length > 0) assert.match(response.headers.get('content-type') ?? '', /^application\/scim\+json/, `${method} ${path}: ${text}`);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request('PUT', path, body, headers);
  }
  patch(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request('PATCH', path, body, headers);
  }
  delete(path: string, headers?: Record<string, string>) {
    return this.request('DELETE', path, undefined, headers);
  }
}

export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export const patchOp = (...Operations: object[]) => ({ schemas: [PATCH_OP], Operations });

/** A SCIM error: this status (as a string in the body too), and `scimType` when given. */
export function expectScimError(response: ScimResponse, status: number, scimType?: string): void {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.deepEqual(response.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
  assert.equal(response.body.status, String(status));
  assert.equal(typeof response.body.detail, 'string');
  if (scimType !== undefined) assert.equal(response.body.scimType, scimType, JSON.stringify(response.body));
}

/** An Okta-shaped user: userName is the email, with a name, a work email and an externalId. */
export const oktaUser = (email: string, extra: object = {}) => ({
  schemas: [SCIM_USER],
  userName: email,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Ada Lovelace',
  externalId: `okta-${email}`,
  active: true,
  ...extra,
});
