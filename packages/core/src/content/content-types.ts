/** Every content type, in the specification's order; each is also its event-name prefix. */
export const contentTypes = [
  'article',
  'video',
  'course',
  'guide',
  'event',
  'event_type',
  'link',
  'track',
  'scheduled_track',
  'collection',
] as const;
export type ContentType = (typeof contentTypes)[number];

/** Types whose `items` list other content items, in order (here, with no import, so the console's bundle can read it). */
export const containerTypes = ['track', 'scheduled_track', 'collection'] as const satisfies readonly ContentType[];
export const isContainerType = (type: ContentType): boolean => (containerTypes as readonly string[]).includes(type);

/**
 * The types with a collection of their own, by the collection's name in the API's paths
 * (`/api/v2/articles/`): the one table the routes, the API description, `lectern export` and the
 * console read. Events and event series have the events area's collections instead.
 */
export const contentTypeCollections = {
  article: 'articles',
  video: 'videos',
  course: 'courses',
  guide: 'guides',
  link: 'links',
  track: 'tracks',
  scheduled_track: 'scheduled-tracks',
  collection: 'collections',
} as const satisfies Partial<Record<ContentType, string>>;
export type CollectionContentType = keyof typeof contentTypeCollections;
export type ContentCollection = (typeof contentTypeCollections)[CollectionContentType];

/** The content type a collection holds: `articles` → `article`. */
export const contentTypeOfCollection = Object.fromEntries(
  Object.entries(contentTypeCollections).map(([type, collection]) => [collection, type]),
) as Record<ContentCollection, CollectionContentType>;
