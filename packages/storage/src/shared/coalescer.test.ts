import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalescer } from './coalescer.ts';

/** A statement that answers when the test says so, and what was sent. */
function statements() {
  const sent: Array<{ inputs: number[]; finish: () => void; fail: () => void }> = [];
  const send = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      sent.push({ inputs, finish: () => resolve(inputs.map((input) => input * 10)), fail: () => reject(new Error('refused')) });
    });
  return { sent, send };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('a coalescer', () => {
  it('sends calls at once while few are out, and the rest together, each answered its own', async () => {
    const { sent, send } = statements();
    const call = coalescer<number, number>({
      one: async (input) => (await send([input]))[0]!,
      many: send,
      inFlight: 2,
      most: 100,
    });
    const answers = [1, 2, 3, 4, 5].map(call);
    await turn();
    assert.deepEqual(
      sent.map((statement) => statement.inputs),
      [[1], [2]],
      'the first two went alone; the others wait',
    );
    sent[0]!.finish();
    await turn();
    assert.deepEqual(sent[2]!.inputs, [3, 4, 5], 'the waiting calls went as one, in their order');
    sent[1]!.finish();
    sent[2]!.finish();
    assert.deepEqual(await Promise.all(answers), [10, 20, 30, 40, 50]);
    assert.equal(await Promise.race([call(6), turn().then(() => 'waiting')]), 'waiting');
    sent[3]!.finish();
    await turn();
    assert.equal(sent.length, 4, 'an idle coalescer sends a call alone, at once');
  });

  it('carries at most `most` calls a statement', async () => {
    const { sent, send } = statements();
    const call = coalescer<number, number>({ one: async (input) => (await send([input]))[0]!, many: send, inFlight: 1, most: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map(call);
    for (let i = 0; i < 4; i++) {
      await turn();
      sent[i]!.finish();
    }
    assert.deepEqual(await Promise.all(answers), [10, 20, 30, 40, 50, 60]);
    assert.deepEqual(
      sent.map((statement) => statement.inputs),
      [[1], [2, 3], [4, 5], [6]],
    );
  });

  it('runs each call of a failed statement alone, so that only a bad one fails', async () => {
    const call = coalescer<number, number>({
      one: async (input) => {
        if (input === 3) throw new Error(`no ${input}`);
        return input * 10;
      },
      many: async () => {
        throw new Error('one bad value fails the statement');
      },
      inFlight: 1,
      most: 100,
    });
    const first = call(0);
    const answers = [1, 2, 3, 4].map((input) => call(input).catch((error: Error) => error.message));
    assert.equal(await first, 0);
    assert.deepEqual(await Promise.all(answers), [10, 20, 'no 3', 40]);
  });
});
