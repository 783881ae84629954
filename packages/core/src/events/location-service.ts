import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { conflict, notFound } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import { MAX_INTEGER_ID } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import { createLocationInput, locationListSpec, updateLocationInput, type Location } from './location.ts';

/** Locations belong to the events area: the events scopes govern them. */
export class LocationService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<Location>> {
    authorize(ctx.actor, 'events:read');
    const query = parseListQuery(locationListSpec, params);
    return toListResult(query, await this.deps.storage.locations.list(query), (location) => location);
  }

  async get(ctx: RequestContext, id: string): Promise<Location> {
    authorize(ctx.actor, 'events:read');
    return this.require(this.deps.storage, id);
  }

  /** The path segment is the integer id; anything else names no location. */
  private async require(stores: Pick<Stores, 'locations'>, id: string): Promise<Location> {
    const location = /^[1-9]\d{0,9}$/.test(id) && Number(id) <= MAX_INTEGER_ID ? await stores.locations.findById(Number(id)) : undefined;
    if (!location) throw notFound('Location');
    return location;
  }

  async update(ctx: RequestContext, id: string, body: InputOf<typeof updateLocationInput>, options: WriteOptions = {}): Promise<Location> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(updateLocationInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const before = await this.require(tx, id);
      assertIfMatch(options.ifMatch, before);
      const zoneChanges = input.timezone !== undefined && input.timezone !== before.timezone;
      if (zoneChanges && (await tx.locations.isInUse(before.id)))
        throw conflict(
          'conflict',
          'Events or series are held at this location, so its time zone cannot change: their times would move. Create a new location for the other zone and move the events there.',
        );
      await tx.locations.update(before.id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
      });
      const after = (await tx.locations.findById(before.id))!;
      await this.deps.audit.recordUpdate(tx, ctx, 'location.updated', String(after.id), before, after);
      return after;
    });
  }

  async create(ctx: RequestContext, body: InputOf<typeof createLocationInput>): Promise<Location> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(createLocationInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const location = await tx.locations.insert({ name: input.name, timezone: input.timezone, created: nowIso(this.deps.clock) });
      // a location's public id is its integer id
      await this.deps.audit.record(tx, ctx, 'location.created', String(location.id));
      return location;
    });
  }
}
