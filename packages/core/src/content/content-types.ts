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
