/** Each content type's fields: the form inputs per type and the body they make, shared by creating and editing. */
import type { BodyOf, ContentItem, ContentType } from '../../api/types.ts';
// core's one table of content types, through the subpath that holds only that plain data (the bundle takes nothing else of core)
import { contentTypes, isContainerType } from '@lectern/core/content-types';
import { checked, Field, integer, list, nullableText, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';

export const TYPES: readonly ContentType[] = contentTypes;
export const label = (type: string) => type.replace('_', ' ');

export type Common = BodyOf<'/api/v2/articles', 'post'>;
export type Extra = Partial<
  BodyOf<'/api/v2/links', 'post'> & BodyOf<'/api/v2/videos', 'post'> & BodyOf<'/api/v2/scheduled-tracks', 'post'>
>;

export function bodyFrom(data: FormData, type: ContentType): Common & Extra {
  const body: Common & Extra = {
    name: text(data, 'name'),
    description: text(data, 'description'),
    tags: list(data, 'tags'),
    groups: list(data, 'groups'),
    is_hidden: checked(data, 'is_hidden'),
    is_self_assignable: checked(data, 'is_self_assignable'),
    is_completable: checked(data, 'is_completable'),
    duration: integer(data, 'duration') ?? 0,
  };
  if (type === 'link') body.url = text(data, 'url');
  if (type === 'video' && text(data, 'media_asset_id')) body.media_asset_id = text(data, 'media_asset_id');
  if (isContainerType(type)) body.items = list(data, 'items');
  if (type === 'scheduled_track') {
    body.starts_on = nullableText(data, 'starts_on');
    body.ends_on = nullableText(data, 'ends_on');
  }
  return body;
}

export function ContentFields({ type, item }: { type: ContentType; item?: ContentItem }) {
  return (
    <>
      <Field name="name" label="Name" required defaultValue={item?.name} />
      <Field name="description" label="Description" defaultValue={item?.description} />
      {type === 'link' ? <Field name="url" label="URL" type="url" /> : null}
      {type === 'video' ? <Field name="media_asset_id" label="Media asset id" /> : null}
      {isContainerType(type) ? (
        <Picker name="items" label="Items" kind="content" multiple hint="The items it holds, in the order picked." />
      ) : null}
      {type === 'scheduled_track' ? (
        <>
          <Field name="starts_on" label="Starts on" type="date" />
          <Field name="ends_on" label="Ends on" type="date" />
        </>
      ) : null}
      <Field name="tags" label="Tags" hint="Separated by commas or spaces." defaultValue={item?.tags.join(', ')} />
      <Picker
        name="groups"
        label="Access groups"
        kind="group"
        multiple
        hint="None means everyone may see it."
        initial={item?.groups.map((group) => ({ value: group.public_id, label: group.name }))}
      />
      <Field name="duration" label="Duration (minutes)" type="number" min={0} defaultValue={String(item?.duration_minutes ?? 0)} />
      <Field name="is_hidden" label="Hidden" type="checkbox" defaultChecked={item?.is_hidden ?? false} />
      <Field name="is_self_assignable" label="Self-assignable" type="checkbox" defaultChecked={item?.is_self_assignable ?? false} />
      <Field name="is_completable" label="Completable" type="checkbox" defaultChecked={item?.is_completable ?? true} />
    </>
  );
}
