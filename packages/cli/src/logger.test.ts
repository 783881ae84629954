import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { AccessLogEntry } from '@lectern/http';
import { accessLine, pinoOptions } from './logger.ts';

describe('the access line', () => {
  const entries: AccessLogEntry[] = [
    { request_id: 'req_9CQMV3WBEZ13TD76JAXD38F5R2', method: 'GET', route: '/api/v2/users/:id', status: 200, duration_ms: 1.25 },
    { request_id: 'client.id:42-x_y', method: 'HEAD', route: null, status: 404, duration_ms: 0 },
    { request_id: 'req_X', method: null, route: null, status: 400, duration_ms: 12, reason: 'HPE_INVALID_METHOD' },
    { request_id: 'req_Y', method: 'PATCH', route: '/api/v2/users/:id', status: 431, duration_ms: 3.5, reason: '' },
    { request_id: 'a"b\\c\u2028ü', method: 'G"T', route: '/x/\n', status: 500, duration_ms: 0.01, reason: 'why "not"' },
  ];

  it("is what pino writes for info(entry, 'request') with the server's options, time aside", () => {
    const written: string[] = [];
    const logger = pino(pinoOptions('info'), { write: (line: string) => written.push(line) });
    const access = accessLine(logger, (line) => written.push(line));
    for (const entry of entries) {
      logger.info(entry, 'request');
      access(entry);
      const [byPino, byHand] = written.splice(0).map((line) => line.replace(/"time":"[^"]+"/, '"time":"T"'));
      assert.equal(byHand, byPino);
      assert.deepEqual(Object.keys(JSON.parse(byHand!)), Object.keys(JSON.parse(byPino!)));
    }
  });

  it('follows the level, also when it changes', () => {
    const written: string[] = [];
    const logger = pino(pinoOptions('warn'), { write: (line: string) => written.push(line) });
    const access = accessLine(logger, (line) => written.push(line));
    access(entries[0]!);
    assert.equal(written.length, 0);
    logger.level = 'debug';
    access(entries[0]!);
    assert.equal(written.length, 1);
  });
});
