import { authorize, type RequestContext } from '../auth/actor.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { isUuid } from '../shared/ids.ts';
import { StoredRecordService } from '../shared/stored-record-service.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import { channelListSpec, createChannelInput, updateChannelInput, type Channel, type ChannelRecord } from './channel.ts';

/** Channels are part of the content catalogue: the content scopes govern them. */
export class ChannelService extends StoredRecordService<ChannelRecord, Channel> {
  constructor(deps: ServiceDeps) {
    super(deps, {
      readScope: 'content:read',
      listSpec: channelListSpec,
      noun: 'Channel',
      store: (stores) => stores.channels,
      isPublicId: isUuid,
    });
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
}
