/**
 * Bulk actions on selected content items: archive and unarchive through the batch routes (one
 * request, a result per item), and assigning them to every member of a group picked by name,
 * through the bulk assignment job.
 */
import { api, ApiError, unwrap } from '../../api/client.ts';
import { membersOf } from '../../api/group-members.ts';
import type { ContentItem } from '../../api/types.ts';
import { counted, type BulkAction, type Selectable } from '../../components/bulk-bar.tsx';
import { outcomeOfBatch, type BulkOutcome } from '../../components/bulk-outcome.ts';
import { Field, Form, nullableText, picked } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { rememberJob } from '../../session/recent-jobs.ts';

const noun = ['item', 'items'] as const;
const itemName = (item: ContentItem) => item.name;

/** Archive or unarchive the rows in one batch request, whose answer names each item that failed. */
function setArchived(archived: boolean) {
  return async (rows: ContentItem[]) => {
    const body = { items: rows.map((item) => ({ public_id: item.public_id })) };
    const result = archived
      ? await unwrap(api.POST('/api/v2/content-items/bulk/archive', { body }))
      : await unwrap(api.POST('/api/v2/content-items/bulk/unarchive', { body }));
    return outcomeOfBatch(archived ? 'Archived' : 'Unarchived', rows, result, itemName);
  };
}

function AssignToGroup({ rows, finish }: { rows: ContentItem[]; finish: (outcome: BulkOutcome) => void }) {
  return (
    <Form
      submitLabel={`Assign ${counted(rows.length, noun)}`}
      onSubmit={async (data) => {
        const [group = ''] = picked(data, 'group_id', 'Pick a group from the list.');
        const members = await membersOf([group]);
        if (!members.length) {
          const message = 'This group has no members yet: nobody would be assigned.';
          throw new ApiError(422, { code: 'validation_error', message, field_errors: { group_id: [message] } });
        }
        const due_date = nullableText(data, 'due_date');
        const assignments = members.flatMap((user_id) => rows.map((item) => ({ user_id, content_item_id: item.public_id, due_date })));
        const job = await unwrap(api.POST('/api/v2/assignments/bulk', { body: { assignments } }));
        rememberJob('assignments', job.id, `${assignments.length} assignments`);
        finish({
          done: 'Assigning in the background',
          succeeded: rows.length,
          failures: [],
          note: (
            <>
              {assignments.length} assignments for {members.length} {members.length === 1 ? 'member' : 'members'}:{' '}
              <ResourceLink kind="bulk-job" id={['assignments', job.id]}>
                follow the bulk job
              </ResourceLink>{' '}
              for its progress and any item that fails.
            </>
          ),
        });
      }}
    >
      <Picker name="group_id" label="Group" kind="group" required hint="Every member of the group gets each selected item." />
      <Field name="due_date" label="Due date" type="date" />
    </Form>
  );
}

export function contentBulkActions({ archive, assign }: { archive: boolean; assign: boolean }): Selectable<ContentItem> {
  const actions: BulkAction<ContentItem>[] = [];
  if (archive) {
    actions.push(
      {
        label: 'Archive',
        danger: true,
        confirm: (rows) => `Archive ${counted(rows.length, noun)}? Archived content can be unarchived later.`,
        run: setArchived(true),
        skip: { when: (item) => item.is_archived, already: 'archived' },
      },
      { label: 'Unarchive', run: setArchived(false), skip: { when: (item) => !item.is_archived, already: 'active' } },
    );
  }
  if (assign) actions.push({ label: 'Assign to a group…', panel: (rows, finish) => <AssignToGroup rows={rows} finish={finish} /> });
  return { noun, rowName: itemName, actions };
}
