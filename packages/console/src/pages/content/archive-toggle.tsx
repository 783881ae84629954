/** Archiving or unarchiving one content item (the bulk routes, with one item). */
import { api, unwrap } from '../../api/client.ts';
import type { ContentItem } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';

export function ArchiveToggle({ item, done }: { item: ContentItem; done: () => void }) {
  const verb = item.is_archived ? 'Unarchive' : 'Archive';
  const items = [{ public_id: item.public_id }];
  return (
    <ActionButton
      label={verb}
      name={`${verb} ${item.name}`}
      run={() =>
        item.is_archived
          ? unwrap(api.POST('/api/v2/content-items/bulk/unarchive', { body: { items } }))
          : unwrap(api.POST('/api/v2/content-items/bulk/archive', { body: { items } }))
      }
      done={done}
    />
  );
}
