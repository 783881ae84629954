import type { Kysely } from 'kysely';
import type { ListQuery, Location, Page } from '@lectern/core';
import type { LocationStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { applyFilters, fetchPage, type ListDefinition } from '../shared/list-builder.ts';
import { insertRow } from '../shared/insert-row.ts';

const locationListDefinition: ListDefinition = {
  filters: { timezone: (eb, value) => eb('l.timezone', '=', value) },
  search: ['l.name'],
  ordering: { id: 'l.id', name: 'l.name' },
  tiebreak: 'l.id',
};

const locationColumns = ['l.id', 'l.name', 'l.timezone'] as const;

export class LocationRepository implements LocationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { name: string; timezone: string; created: string }): Promise<Location> {
    const id = await insertRow(this.db, 'locations', row);
    return { id: id, name: row.name, timezone: row.timezone };
  }

  findById(id: number): Promise<Location | undefined> {
    return this.db.selectFrom('locations as l').select(locationColumns).where('l.id', '=', id).executeTakeFirst();
  }

  async list(query: ListQuery): Promise<Page<Location>> {
    const filtered = applyFilters(this.db.selectFrom('locations as l'), query, locationListDefinition);
    const { rows, total } = await fetchPage<Location>(filtered, query, locationListDefinition, (q) => q.select(locationColumns));
    return { total, items: rows };
  }
}
