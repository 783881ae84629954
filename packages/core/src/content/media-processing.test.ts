import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInput } from '../shared/validation.ts';
import { contentPageUrl, mediaProcessingOut, mediaProcessingOutSchema, mediaStatusReportInput } from './media-processing.ts';

const id = '7d3c1f9e-1b2a-4c5d-8e9f-0a1b2c3d4e5f';

describe('media processing', () => {
  it('links to the item on the platform, whatever the trailing slashes of the public URL', () => {
    assert.equal(contentPageUrl('https://learn.example.com', 'video', id), `https://learn.example.com/content/video/${id}`);
    assert.equal(
      contentPageUrl('https://learn.example.com/lms//', 'event_type', id),
      `https://learn.example.com/lms/content/event_type/${id}`,
    );
  });

  it('builds MediaProcessingOut, with no duration for an errored asset', () => {
    const ready = mediaProcessingOut(
      { publicId: id, contentType: 'event' },
      { mediaAssetId: 'a1', status: 'ready', duration: 61 },
      'https://x.example',
    );
    assert.deepEqual(ready, {
      content_id: id,
      content_type: 'event',
      media_asset_id: 'a1',
      status: 'ready',
      duration: 61,
      url: `https://x.example/content/event/${id}`,
    });
    assert.deepEqual(mediaProcessingOutSchema.parse(ready), ready);
    const errored = mediaProcessingOut(
      { publicId: id, contentType: 'video' },
      { mediaAssetId: 'a1', status: 'errored', duration: 61 },
      'https://x.example',
    );
    assert.equal(errored.duration, null);
  });

  it('accepts a report with or without a duration, and refuses one for an errored asset', () => {
    assert.deepEqual(parseInput(mediaStatusReportInput, { media_asset_id: ' a1 ', status: 'ready' }), {
      media_asset_id: 'a1',
      status: 'ready',
    });
    assert.equal(parseInput(mediaStatusReportInput, { media_asset_id: 'a1', status: 'errored', duration: null }).duration, null);
    assert.throws(() => parseInput(mediaStatusReportInput, { media_asset_id: 'a1', status: 'errored', duration: 5 }), /validation/);
    assert.throws(() => parseInput(mediaStatusReportInput, { media_asset_id: 'a1', status: 'ready', duration: -1 }), /validation/);
  });
});
