import type { Kysely } from 'kysely';
import type { ChannelRecord, ListQuery, Page } from '@lectern/core';
import type { ChannelStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { applyFilters, fetchPage, type ListDefinition } from '../shared/list-builder.ts';
import { insertRow } from '../shared/insert-row.ts';

interface ChannelRow {
  id: number;
  public_id: string;
  name: string;
  created: string;
  modified: string;
}

const channelListDefinition: ListDefinition = {
  filters: {},
  ranges: { created: 'c.created', modified: 'c.modified' },
  search: ['c.name'],
  ordering: { name: 'c.name', created: 'c.created', modified: 'c.modified' },
  tiebreak: 'c.id',
};

const channelColumns = ['c.id', 'c.public_id', 'c.name', 'c.created', 'c.modified'] as const;

const toChannelRecord = (row: ChannelRow): ChannelRecord => ({
  id: row.id,
  view: { public_id: row.public_id, name: row.name, created: row.created, modified: row.modified },
});

export class ChannelRepository implements ChannelStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { publicId: string; name: string; created: string }): Promise<ChannelRecord> {
    const id = await insertRow(this.db, 'channels', {
      public_id: row.publicId,
      name: row.name,
      created: row.created,
      modified: row.created,
    });
    return (await this.findById(id))!;
  }

  async update(id: number, changes: { name?: string; modified: string }): Promise<void> {
    await this.db.updateTable('channels').set(changes).where('id', '=', id).execute();
  }

  async findById(id: number): Promise<ChannelRecord | undefined> {
    const row = await this.live().where('c.id', '=', id).executeTakeFirst();
    return row ? toChannelRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<ChannelRecord | undefined> {
    const row = await this.live().where('c.public_id', '=', publicId).executeTakeFirst();
    return row ? toChannelRecord(row) : undefined;
  }

  async list(query: ListQuery): Promise<Page<ChannelRecord>> {
    const filtered = applyFilters(this.db.selectFrom('channels as c').where('c.deleted_at', 'is', null), query, channelListDefinition);
    const { rows, total } = await fetchPage<ChannelRow>(filtered, query, channelListDefinition, (q) => q.select(channelColumns));
    return { total, items: rows.map(toChannelRecord) };
  }

  private live() {
    return this.db.selectFrom('channels as c').select(channelColumns).where('c.deleted_at', 'is', null);
  }
}
