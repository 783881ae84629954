/**
 * What the HTTP edge refuses that Node's parser lets through: a JSON body that is not UTF-8 (which
 * a lenient decoding would store with U+FFFD in place of the bytes sent), more than one Host, a
 * transfer coding other than chunked, and a compressed request body.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSocket, rawRequest, readResponse } from '../helpers/raw-http.ts';
import { expectError, uniqueEmail, useServer } from '../helpers/server.ts';

describe('the HTTP edge', () => {
  const server = useServer();
  const auth = () => `Authorization: Bearer ${server.adminToken}\r\n`;

  /** Sends a head and a body of raw bytes on a new connection; the answer. */
  async function sendBytes(head: string, body: Buffer) {
    const socket = await openSocket(server.url);
    try {
      const answer = readResponse(socket);
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
      return await answer;
    } finally {
      socket.destroy();
    }
  }

  it('refuses a JSON body that is not UTF-8 with 400, storing nothing', async () => {
    const email = uniqueEmail('latin1');
    const body = Buffer.concat([Buffer.from(`{"email":"${email}","name":"caf`), Buffer.from([0xe9]), Buffer.from('"}')]);
    const response = await sendBytes(
      `POST /api/v2/users/ HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.error.code, 'bad_request');
    assert.match(response.body.error.message, /not valid UTF-8/);
    const found = await server.api.get(`/api/v2/users/?search=${encodeURIComponent(email)}`);
    assert.equal(found.body.meta.total_count, 0);
    // the same text in UTF-8 is stored as sent
    const created = await server.api.post('/api/v2/users/', { email, name: 'café' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'café');
  });

  it('refuses a request with two Host headers with 400', async () => {
    const response = await rawRequest(server.url, `GET /api/v2/users/ HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n${auth()}\r\n`);
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.error.code, 'bad_request');
    assert.match(response.body.error.message, /more than one Host/);
    assert.equal(response.closed, true);
    const one = await rawRequest(server.url, `GET /api/v2/users/ HTTP/1.1\r\nHost: a.example\r\n${auth()}Connection: close\r\n\r\n`);
    assert.equal(one.status, 200, one.text);
  });

  it('answers 501 to a transfer coding other than chunked, reading nothing of the body', async () => {
    const email = uniqueEmail('gzip');
    const json = `{"email":"${email}","name":"Zipped"}`;
    const chunked = `${Buffer.byteLength(json).toString(16)}\r\n${json}\r\n0\r\n\r\n`;
    const response = await rawRequest(
      server.url,
      `POST /api/v2/users/ HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunked}`,
    );
    assert.equal(response.status, 501, response.text);
    assert.equal(response.body.error.code, 'not_implemented');
    assert.equal(response.closed, true);
    assert.equal((await server.api.get(`/api/v2/users/?search=${encodeURIComponent(email)}`)).body.meta.total_count, 0);
  });

  it('refuses a compressed request body with 415 and Accept-Encoding: identity, on JSON routes and uploads', async () => {
    const json = await server.api.request('POST', '/api/v2/users/', {
      raw: '{"email":"x@example.com","name":"X"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectError(json, 415, 'unsupported_media_type');
    assert.equal(json.headers.get('accept-encoding'), 'identity');
    const upload = await server.api.request('POST', '/api/v2/imports/?kind=users', {
      raw: 'email,name\n',
      headers: { 'content-type': 'text/csv', 'content-encoding': 'gzip' },
    });
    expectError(upload, 415, 'unsupported_media_type');
    // identity is no coding at all
    const plain = await server.api.request('POST', '/api/v2/users/', {
      raw: JSON.stringify({ email: uniqueEmail('identity'), name: 'Plain' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    assert.equal(plain.status, 201, plain.text);
  });
});
