import { sql, type Kysely } from 'kysely';
import type { WebhookEvent } from '@lectern/core';
import type { OutboxEntry, OutboxStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { announce } from '../postgres/postgres-wake-ups.ts';
import { preparedQuery } from '../shared/prepared-query.ts';
import { copyRows } from '../postgres/copy-in.ts';
import { takesCopy } from '../shared/insert-row.ts';

// Asked on every engine pass (every 25 ms by default, idle or not), so compiled once (see
// prepared-query.ts). The limit is written in: SQLite plans with a bound LIMIT's value, so binding
// one makes it prepare the statement again on every run. Ordered, so that PostgreSQL reads the
// primary key from the cursor on: unordered, with statistics behind a table an import had just
// grown, it planned a scan of the table, which reaches the newest events last (4.5 ms a pass on
// average through the import benchmark, whose imports append some 275 000 events).
const eventAfter = preparedQuery(1, (db: Kysely<Database>, sequence: number) =>
  db.selectFrom('outbox_events').select('sequence').where('sequence', '>', sequence).orderBy('sequence').limit(sql.lit(1)),
);

const EVENTS_PER_STATEMENT = 500;

const outboxRow = (event: WebhookEvent) => ({
  event_id: event.id,
  type: event.type,
  created_at: event.created_at,
  payload: JSON.stringify(event),
});

export class OutboxRepository implements OutboxStore {
  constructor(private readonly db: Kysely<Database>) {}

  append(event: WebhookEvent): Promise<void> {
    return this.appendMany([event]);
  }

  async appendMany(events: readonly WebhookEvent[]): Promise<void> {
    // the sequence is the insertion order, which a multi-row INSERT keeps on both databases
    // other processes' delivery engines wake when the events commit (postgres/postgres-wake-ups.ts)
    const woke = announce(this.db as Kysely<unknown>, 'outbox');
    const rows = events.map(outboxRow);
    if (takesCopy(this.db, rows)) {
      // COPY keeps the rows' order too: the sequence is drawn row by row as they arrive
      await copyRows(this.db as Kysely<unknown>, 'outbox_events', rows);
      if (woke) await sql`select ${woke}`.execute(this.db);
      return;
    }
    for (let start = 0; start < events.length; start += EVENTS_PER_STATEMENT) {
      const insert = this.db.insertInto('outbox_events').values(rows.slice(start, start + EVENTS_PER_STATEMENT));
      if (woke) await insert.returning(woke.as('woke')).execute();
      else await insert.execute();
    }
  }

  async readAfter(sequence: number, limit: number): Promise<OutboxEntry[]> {
    const rows = await this.db
      .selectFrom('outbox_events')
      .select(['sequence', 'payload'])
      .where('sequence', '>', sequence)
      .orderBy('sequence')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ sequence: row.sequence, event: JSON.parse(row.payload) as WebhookEvent }));
  }

  async hasEventsAfter(sequence: number): Promise<boolean> {
    return (await eventAfter(this.db, sequence)).length > 0;
  }
}
