/**
 * The core's Storage port over any kysely database. Only the dialect differs between SQLite and
 * (later) PostgreSQL; the repositories and their queries are shared.
 */
import { Migrator, type Kysely } from 'kysely';
import type { Storage, Stores } from '@lectern/core';
import { TokenRepository } from './auth/token-repository.ts';
import { GroupRepository } from './groups/group-repository.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { UserRepository } from './users/user-repository.ts';
import { OutboxRepository } from './webhooks/outbox-repository.ts';
import { WebhookDeliveryRepository } from './webhooks/webhook-delivery-repository.ts';
import { WebhookEndpointRepository } from './webhooks/webhook-endpoint-repository.ts';

export function createStores(db: Kysely<Database>): Stores {
  return {
    users: new UserRepository(db),
    groups: new GroupRepository(db),
    tokens: new TokenRepository(db),
    outbox: new OutboxRepository(db),
    webhookEndpoints: new WebhookEndpointRepository(db),
    webhookDeliveries: new WebhookDeliveryRepository(db),
  };
}

export class KyselyStorage implements Storage {
  readonly users;
  readonly groups;
  readonly tokens;
  readonly outbox;
  readonly webhookEndpoints;
  readonly webhookDeliveries;

  constructor(
    /** exposed for adapters' own maintenance work (backups, benchmarks); the core never sees it */
    readonly db: Kysely<Database>,
  ) {
    const stores = createStores(db);
    this.users = stores.users;
    this.groups = stores.groups;
    this.tokens = stores.tokens;
    this.outbox = stores.outbox;
    this.webhookEndpoints = stores.webhookEndpoints;
    this.webhookDeliveries = stores.webhookDeliveries;
  }

  transaction<T>(work: (tx: Stores) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(createStores(trx)));
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

/** Brings the schema up to date; safe to run from several processes at once. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`);
  }
}
