import assert from 'node:assert/strict';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import type { AccessLogEntry } from '@lectern/http';
import { accessLine, LineBuffer, openLineBuffer, pinoOptions } from './logger.ts';

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

describe('the line buffer', () => {
  // a destination that writes each block at once, as SonicBoom does when it is not busy
  const collect = (blockBytes: number) => {
    const blocks: Buffer[] = [];
    const destination = { write: (data: Buffer) => blocks.push(data) > 0, flush: () => undefined, flushSync: () => undefined };
    return { blocks, buffer: new LineBuffer(destination, blockBytes) };
  };

  it('hands lines on as whole blocks of bytes, in order, once a block is full or drained', () => {
    const { blocks, buffer } = collect(32);
    buffer.write('one\n');
    buffer.write('two\n');
    assert.equal(blocks.length, 0, 'nothing is written before the block fills');
    buffer.write('three333\n');
    assert.equal(blocks.length, 1, 'a line that might not fit starts a new block');
    assert.equal(blocks[0]!.toString(), 'one\ntwo\n');
    buffer.drain();
    buffer.drain();
    assert.deepEqual(
      blocks.map((block) => block.toString()),
      ['one\ntwo\n', 'three333\n'],
      'draining twice writes nothing the second time',
    );
  });

  it('keeps a block it handed on intact while later lines are written', () => {
    const { blocks, buffer } = collect(16);
    buffer.write('aaaa\n');
    buffer.drain();
    buffer.write('bbbb\n');
    buffer.drain();
    // the destination may still be writing the first block: the second must not reuse its memory
    assert.deepEqual(
      blocks.map((block) => block.toString()),
      ['aaaa\n', 'bbbb\n'],
    );
  });

  it('writes characters outside ASCII as UTF-8, and a line longer than a block whole, after what came before', () => {
    const { blocks, buffer } = collect(24);
    buffer.write('é ü 😀\n');
    const long = `${'x'.repeat(40)}\n`;
    buffer.write(long);
    buffer.write('ß\n');
    buffer.drain();
    assert.equal(Buffer.concat(blocks).toString('utf8'), `é ü 😀\n${long}ß\n`);
    assert.equal(blocks[1]!.toString(), long);
  });

  describe('on a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-log-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    let files = 0;
    const open = () => {
      const file = join(dir, `log-${files++}`);
      return { file, buffer: openLineBuffer(openSync(file, 'w'), 64) };
    };
    const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => `{"n":${from + i}}\n`);

    it('writes what it holds before drainSync returns: the last lines before an exit', () => {
      const { file, buffer } = open();
      for (const line of lines(0, 5)) buffer.write(line);
      assert.equal(readFileSync(file, 'utf8'), '', 'nothing is written while the block has room');
      buffer.drainSync();
      assert.equal(readFileSync(file, 'utf8'), lines(0, 5).join(''));
    });

    it('writes full blocks by itself, off the main thread, every line once and in order', async () => {
      const { file, buffer } = open();
      const written = lines(0, 200);
      for (const line of written) buffer.write(line);
      buffer.drain();
      const expected = written.join('');
      for (let i = 0; i < 100 && readFileSync(file, 'utf8').length < expected.length; i++) {
        await sleep(10);
        buffer.drain();
      }
      assert.equal(readFileSync(file, 'utf8'), expected);
    });
  });
});
