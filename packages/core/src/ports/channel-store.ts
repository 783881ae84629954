import type { ChannelRecord } from '../content/channel.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';

export interface ChannelStore {
  insert(row: { publicId: string; name: string; created: string }): Promise<ChannelRecord>;
  update(id: number, changes: { name?: string; modified: string }): Promise<void>;
  findById(id: number): Promise<ChannelRecord | undefined>;
  findByPublicId(publicId: string): Promise<ChannelRecord | undefined>;
  list(query: ListQuery): Promise<Page<ChannelRecord>>;
}
