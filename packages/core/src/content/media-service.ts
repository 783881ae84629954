import { authorize, isAdmin, type RequestContext } from '../auth/actor.ts';
import { everyItem } from '../ports/content-store.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { conflict, forbidden, LecternError, notFound } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import { isMediaContentType, mediaEventType } from './content-events.ts';
import { typeViewOf, type ContentTypeView } from './content-item.ts';
import { mediaProcessingOut, mediaStatusReportInput } from './media-processing.ts';

export class MediaService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * `POST /content-items/<id>/media-status/`: records the outcome of processing an item's hosted
   * media and tells subscribers. Answers the item in its type's shape.
   */
  async reportStatus(ctx: RequestContext, publicId: string, body: InputOf<typeof mediaStatusReportInput>): Promise<ContentTypeView> {
    authorize(ctx.actor, 'content:write');
    if (!isAdmin(ctx.actor)) throw forbidden("Only admins report media processing results (the media host's integration).");
    const report = parseInput(mediaStatusReportInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const item = isUuid(publicId) ? await tx.content.findByPublicId(publicId, everyItem) : undefined;
      if (!item) throw notFound('Content item');
      const contentType = item.contentType;
      if (!isMediaContentType(contentType)) {
        const message = `A ${contentType} has no hosted media: only videos, events and event series do.`;
        throw new LecternError('validation_error', message, { nonFieldErrors: [message] });
      }
      const current = item.extras.media_asset_id;
      // a late report about an asset the item no longer uses must not overwrite the new one's state
      if (current !== null && current !== report.media_asset_id) {
        throw conflict('conflict', `The item's media asset is ${current}, not ${report.media_asset_id}.`);
      }
      const duration = report.status === 'ready' ? (report.duration ?? null) : null;
      const unchanged =
        current === report.media_asset_id && item.extras.media_status === report.status && item.extras.media_duration === duration;
      // the media host retries its reports; a repeat changes nothing and tells nobody again
      if (unchanged) return typeViewOf(item);

      await tx.content.update(item.id, {
        mediaAssetId: report.media_asset_id,
        mediaStatus: report.status,
        mediaDuration: duration,
        modified: nowIso(this.deps.clock),
      });
      await this.deps.outbox.record(tx, {
        type: mediaEventType(contentType, report.status),
        object: mediaProcessingOut(
          { publicId: item.summary.public_id, contentType },
          { mediaAssetId: report.media_asset_id, status: report.status, duration },
          this.deps.config.publicUrl,
        ),
      });
      const after = typeViewOf((await tx.content.findById(item.id, everyItem))!);
      await this.deps.audit.recordUpdate(tx, ctx, 'content_item.media_status_changed', item.summary.public_id, typeViewOf(item), after);
      return after;
    });
  }
}
