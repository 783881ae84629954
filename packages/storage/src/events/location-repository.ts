import type { Kysely } from 'kysely';
import { locationListSpec, locationSchema, type ListQuery, type Location, type Page } from '@lectern/core';
import type { LocationStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { insertRow } from '../shared/insert-row.ts';
import { defineResource } from '../listing/resource-definition.ts';

/** Locations, from core's locationSchema: the view is the row; its `id` is the API's id. */
const locationResource = defineResource<Location, Record<string, never>, { l: 'locations' }>(locationSchema, locationListSpec, {
  table: 'locations',
  alias: 'l',
  internal: {},
  tiebreak: 'l.id',
});

export class LocationRepository implements LocationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { name: string; timezone: string; created: string }): Promise<Location> {
    const id = await insertRow(this.db, 'locations', row);
    return { id, name: row.name, timezone: row.timezone };
  }

  async findById(id: number): Promise<Location | undefined> {
    const row = await locationResource.read(this.db).where('l.id', '=', id).executeTakeFirst();
    return row ? locationResource.toRecord(row).view : undefined;
  }

  async update(id: number, changes: { name?: string; timezone?: string }): Promise<void> {
    if (Object.keys(changes).length > 0) await this.db.updateTable('locations').set(changes).where('id', '=', id).execute();
  }

  async isInUse(id: number): Promise<boolean> {
    // the location_id index answers this without reading the events
    const row = await this.db.selectFrom('event_details').select('content_id').where('location_id', '=', id).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async list(query: ListQuery): Promise<Page<Location>> {
    const { total, records } = await locationResource.page(this.db, this.db.selectFrom('locations as l'), query);
    return { total, items: records.map((record) => record.view) };
  }
}
