import { authorize, type RequestContext } from '../auth/actor.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { MAX_INTEGER_ID } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import { createLocationInput, locationListSpec, type Location } from './location.ts';

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
    // the path segment is the integer id; anything else names no location
    const location =
      /^[1-9]\d{0,9}$/.test(id) && Number(id) <= MAX_INTEGER_ID ? await this.deps.storage.locations.findById(Number(id)) : undefined;
    if (!location) throw notFound('Location');
    return location;
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
