import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressQuery, earlyLoader, type Page } from './list.ts';
import type { Outcome } from './client.ts';

/** A loader that answers with the query's key and counts its calls. */
function counting() {
  const asked: string[] = [];
  const load = earlyLoader<string>((query) => {
    asked.push(query.key);
    const outcome: Outcome<Page<string>> = {
      data: { data: [query.key], meta: { total_count: 1, page: 1, page_size: 25 } },
      response: new Response(null, { status: 200 }),
    };
    return Promise.resolve(outcome);
  });
  return { asked, load };
}

describe('a list loader started early', () => {
  it('hands the early request to the first call for the same values, whatever their order', async () => {
    const { asked, load } = counting();
    load.start({ page_size: '25', search: 'ada' });
    const outcome = await load(new AddressQuery({ search: 'ada', page_size: '25' }));
    assert.deepEqual(asked, [new AddressQuery({ page_size: '25', search: 'ada' }).key], 'one request in all');
    assert.deepEqual(outcome.data?.data, asked);
  });

  it('drops it when the first call asks for other values, and asks anew', async () => {
    const { asked, load } = counting();
    load.start({ page_size: '25' });
    await load(new AddressQuery({ page_size: '50' }));
    assert.equal(asked.length, 2);
    assert.equal(asked[1], new AddressQuery({ page_size: '50' }).key);
  });

  it('uses an early answer once: a later call for the same values asks the server again', async () => {
    const { asked, load } = counting();
    load.start({ page_size: '25' });
    await load(new AddressQuery({ page_size: '25' }));
    await load(new AddressQuery({ page_size: '25' }));
    assert.equal(asked.length, 2);
  });
});
