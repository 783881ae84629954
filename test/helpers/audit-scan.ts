/**
 * Run when every black-box test's server stops (useServer): whatever the tests did, no audit
 * entry may hold a token value, a stored token hash or a webhook signing secret.
 */
import assert from 'node:assert/strict';
import { queryDatabase } from './database.ts';

export async function assertAuditLogHoldsNoSecrets(database: string): Promise<void> {
  let entries: unknown[];
  let hashes: string[];
  let webhookSecrets: string[];
  try {
    entries = await queryDatabase(database, 'select * from audit_log');
    hashes = (await queryDatabase<{ token_hash: string }>(database, 'select token_hash from api_tokens')).map((row) => row.token_hash);
    webhookSecrets = (await queryDatabase<{ secret: string }>(database, 'select secret from webhook_endpoints')).map((row) => row.secret);
  } catch {
    // a test that removed its database, or a schema from before the audit log: nothing to scan
    return;
  }
  const text = JSON.stringify(entries);
  assert.doesNotMatch(text, /lpat_[0-9A-Za-z]|whsec_/, 'an audit entry holds a token value or a webhook secret');
  for (const value of [...hashes, ...webhookSecrets]) {
    assert.ok(!text.includes(value), 'an audit entry holds a token hash or a webhook secret');
  }
}
