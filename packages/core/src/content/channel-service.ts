import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import { channelListSpec, createChannelInput, updateChannelInput, type Channel, type ChannelRecord } from './channel.ts';

/** Channels are part of the content catalogue: the content scopes govern them. */
export class ChannelService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<Channel>> {
    authorize(ctx.actor, 'content:read');
    const query = parseListQuery(channelListSpec, params);
    return toListResult(query, await this.deps.storage.channels.list(query), (record) => record.view);
  }

  async get(ctx: RequestContext, publicId: string): Promise<Channel> {
    authorize(ctx.actor, 'content:read');
    return (await this.require(this.deps.storage, publicId)).view;
  }

  async create(ctx: RequestContext, body: InputOf<typeof createChannelInput>): Promise<Channel> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(createChannelInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const record = await tx.channels.insert({
        publicId: this.deps.ids.uuid(),
        name: input.name,
        created: nowIso(this.deps.clock),
      });
      await this.deps.audit.record(tx, ctx, 'channel.created', record.view.public_id);
      return record.view;
    });
  }

  async update(
    ctx: RequestContext,
    publicId: string,
    body: InputOf<typeof updateChannelInput>,
    options: WriteOptions = {},
  ): Promise<Channel> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(updateChannelInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const channel = await this.require(tx, publicId);
      assertIfMatch(options.ifMatch, channel.view);
      if (input.name === undefined || input.name === channel.view.name) return channel.view;
      await tx.channels.update(channel.id, { name: input.name, modified: nowIso(this.deps.clock) });
      const after = (await tx.channels.findById(channel.id))!.view;
      await this.deps.audit.recordUpdate(tx, ctx, 'channel.updated', after.public_id, channel.view, after);
      return after;
    });
  }

  private async require(stores: Stores, publicId: string): Promise<ChannelRecord> {
    const record = isUuid(publicId) ? await stores.channels.findByPublicId(publicId) : undefined;
    if (!record) throw notFound('Channel');
    return record;
  }
}
