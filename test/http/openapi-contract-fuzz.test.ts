/**
 * The contract fuzzer (test/contract/fuzzer.ts) against a real server: every operation of the
 * served document, valid and invalid generated requests, every answer held to the document. Here
 * on SQLite; scripts/run-tests.mjs runs test/http/ again on PostgreSQL. FUZZ_SEED replays a run.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ContractFuzzer, type Finding } from '../contract/fuzzer.ts';
import { useServer } from '../helpers/server.ts';

describe('the contract fuzzer', { timeout: 240_000 }, () => {
  // no rate limit: a thousand requests from one token are the point here; generated URLs are loopback ones
  const server = useServer({ args: ['--rate-limit', '1000000', '--allow-private-webhook-targets'] });

  it('finds every operation answering as its description says', async () => {
    const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 1_000_000;
    const database = process.env.LECTERN_TEST_DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite';
    console.log(`# contract fuzzer on ${database}: seed ${seed} (FUZZ_SEED=${seed} replays it)`);
    const document = (await server.api.get('/api/v2/openapi.json', { token: null })).body;
    const started = Date.now();
    const result = await new ContractFuzzer(document, server.urls, server.adminToken, seed, () => {}).run();
    const byClass = new Map<string, Finding[]>();
    for (const finding of result.findings) byClass.set(finding.class, [...(byClass.get(finding.class) ?? []), finding]);
    const { valid, accepted, businessRefusals, invalid } = result.counts;
    console.log(
      `# ${result.operations} operations, ${result.requests} requests (${valid} valid: ${accepted} accepted, ${businessRefusals} refused by a business rule; ${invalid} invalid) in ${Date.now() - started} ms; failures: ${
        [...byClass].map(([kind, list]) => `${kind} ${list.length}`).join(', ') || 'none'
      }`,
    );
    if (process.env.FUZZ_REPORT)
      writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ findings: result.findings, refusals: result.refusals }, null, 1));
    const shown = result.findings
      .slice(0, 40)
      .map((f) => `[${f.class}] ${f.operation}: ${f.detail}\n    ${f.request}`)
      .join('\n');
    assert.equal(result.findings.length, 0, `seed ${seed}, ${result.findings.length} failures:\n${shown}`);
  });

  // what the fuzzer first found on PostgreSQL: integer ids beyond its `integer` were a 500 there
  it('refuses integer ids PostgreSQL cannot hold as it refuses unknown ones', async () => {
    const huge = '99999999999';
    assert.equal((await server.api.get(`/api/v2/locations/${huge}`)).status, 404);
    assert.equal((await server.api.get(`/api/v2/events?location_id=${huge}`)).status, 400);
    const event = { name: 'Far away', timeslots: [{ starts_at: '2027-01-01T09:00:00Z', duration: 'PT1H' }], location_id: Number(huge) };
    const created = await server.api.post('/api/v2/events', event);
    assert.equal(created.status, 422, created.text);
    assert.ok(created.body.error.field_errors.location_id);
  });
});
