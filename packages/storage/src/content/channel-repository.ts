import type { Kysely } from 'kysely';
import { channelListSpec, channelSchema, type Channel, type ChannelRecord, type ListQuery, type Page } from '@lectern/core';
import type { ChannelStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { insertRow } from '../shared/insert-row.ts';
import { defineResource, recordOf } from '../listing/resource-definition.ts';

/** Channels, from core's channelSchema: every field is the column of its name. */
const channelResource = defineResource<Channel, Omit<ChannelRecord, 'view'>, { c: 'channels' }>(channelSchema, channelListSpec, {
  table: 'channels',
  alias: 'c',
  internal: { id: 'c.id' },
  tiebreak: 'c.id',
});

export class ChannelRepository implements ChannelStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { publicId: string; name: string; created: string }): Promise<ChannelRecord> {
    const id = await insertRow(this.db, 'channels', { ...channelResource.toColumns(row), modified: row.created });
    return (await this.findById(id))!;
  }

  async update(id: number, changes: { name?: string; modified: string }): Promise<void> {
    await this.db.updateTable('channels').set(channelResource.toColumns(changes)).where('id', '=', id).execute();
  }

  findById(id: number): Promise<ChannelRecord | undefined> {
    return this.findOne('c.id', id);
  }

  findByPublicId(publicId: string): Promise<ChannelRecord | undefined> {
    return this.findOne('c.public_id', publicId);
  }

  async list(query: ListQuery): Promise<Page<ChannelRecord>> {
    const { total, records } = await channelResource.page(this.db, this.live(), query);
    return { total, items: records.map(recordOf) };
  }

  private live() {
    return this.db.selectFrom('channels as c').where('c.deleted_at', 'is', null);
  }

  private async findOne(column: 'c.id' | 'c.public_id', value: number | string): Promise<ChannelRecord | undefined> {
    const row = await channelResource.select(this.live(), undefined).where(column, '=', value).executeTakeFirst();
    return row ? recordOf(channelResource.toRecord(row)) : undefined;
  }
}
