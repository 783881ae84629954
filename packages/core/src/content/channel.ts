import { z } from 'zod';
import type { ListSpec } from '../shared/list-query.ts';
import { nameField } from '../shared/schema.ts';

/** A channel groups content for browsing; an item belongs to at most one. */
export const channelSchema = z.object({
  public_id: z.string(),
  name: z.string(),
  created: z.string(),
  modified: z.string(),
});
export type Channel = z.infer<typeof channelSchema>;

export interface ChannelRecord {
  id: number;
  view: Channel;
}

export const createChannelInput = z.strictObject({ name: nameField() });
export const updateChannelInput = z.strictObject({ name: nameField().optional() });

export const channelListSpec = {
  filters: {},
  ranges: { created: 'datetime', modified: 'datetime' },
  search: true,
  ordering: ['name', 'created', 'modified'],
  defaultOrdering: ['name'],
} as const satisfies ListSpec;
