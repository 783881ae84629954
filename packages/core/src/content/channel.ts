import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { nameField } from '../shared/schema.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

/** A channel groups content for browsing; an item belongs to at most one. */
export const channelSchema = z
  .object({
    public_id: z.string(),
    name: listed(z.string(), { sort: true, search: true }),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { range: 'datetime', sort: true }),
  })
  .register(apiSchemaNames, { id: 'Channel' });
export type Channel = z.infer<typeof channelSchema>;

export type ChannelRecord = StoredRecord<Channel>;

export const createChannelInput = z.strictObject({ name: nameField() }).register(apiSchemaNames, { id: 'ChannelCreate' });
export const updateChannelInput = z.strictObject({ name: nameField().optional() }).register(apiSchemaNames, { id: 'ChannelUpdate' });

export const channelListSpec = listSpecOf(channelSchema, { defaultOrdering: ['name'] });
