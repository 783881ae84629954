/**
 * Media processing results (docs/content.md): the media host reports that a video, or an event's or
 * event series' recording, finished processing; subscribers get the `MediaProcessingOut` object.
 */
import { z } from 'zod';
import { mediaContentTypes, type MediaContentType, type MediaStatus } from './content-events.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

/** Longest media the platform accepts a duration for: a week, in seconds. */
const MAX_MEDIA_SECONDS = 7 * 24 * 3600;

export const mediaStatusReportInput = z
  .strictObject({
    media_asset_id: z.string().trim().min(1).max(255),
    status: z.enum(['ready', 'errored']),
    /** seconds */
    duration: z.number().nonnegative().max(MAX_MEDIA_SECONDS).nullable().optional(),
  })
  .refine((report) => report.status === 'ready' || report.duration == null, {
    path: ['duration'],
    message: 'Only a ready asset has a duration.',
  })
  // the refinement, for the OpenAPI document
  .meta({ anyOf: [{ properties: { status: { const: 'ready' } } }, { properties: { duration: { type: 'null' } } }] })
  .register(apiSchemaNames, { id: 'MediaStatusReport' });
export type MediaStatusReport = z.output<typeof mediaStatusReportInput>;

/** The payload of `video.ready`, `event.recording_errored`, … (spec "Media-processing object"). */
export const mediaProcessingOutSchema = z.object({
  content_id: z.string(),
  content_type: z.enum(mediaContentTypes),
  media_asset_id: z.string(),
  status: z.enum(['ready', 'errored']),
  duration: z.number().nullable(),
  url: z.string(),
});
export type MediaProcessingOut = z.infer<typeof mediaProcessingOutSchema>;

/** Where people view a content item on the platform: `{public_url}/content/{content_type}/{public_id}`. */
export const contentPageUrl = (publicUrl: string, contentType: string, publicId: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/content/${contentType}/${publicId}`;

export function mediaProcessingOut(
  item: { publicId: string; contentType: MediaContentType },
  report: { mediaAssetId: string; status: MediaStatus; duration: number | null },
  publicUrl: string,
): MediaProcessingOut {
  return {
    content_id: item.publicId,
    content_type: item.contentType,
    media_asset_id: report.mediaAssetId,
    status: report.status,
    // an errored asset has no duration, whatever was reported
    duration: report.status === 'ready' ? report.duration : null,
    url: contentPageUrl(publicUrl, item.contentType, item.publicId),
  };
}
