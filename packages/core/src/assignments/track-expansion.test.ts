import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContentType } from '../content/content-item.ts';
import { expandTrack, type TrackEdge, type TrackNode } from './track-expansion.ts';

const node = (id: number, contentType: ContentType, extra: Partial<TrackNode> = {}): TrackNode => ({
  id,
  contentType,
  isArchived: false,
  visible: true,
  ...extra,
});
const graphOf = (nodes: TrackNode[], edges: Array<[parent: number, item: number, position: number]>) => ({
  nodes: new Map(nodes.map((n) => [n.id, n])),
  edges: edges.map(([parentId, itemId, position]): TrackEdge => ({ parentId, itemId, position })),
});

describe('expandTrack', () => {
  it('lists a track’s items in their order, depth first through nested tracks and scheduled tracks', () => {
    const graph = graphOf(
      [
        node(1, 'track'),
        node(2, 'article'),
        node(3, 'scheduled_track'),
        node(4, 'video'),
        node(5, 'track'),
        node(6, 'course'),
        node(7, 'link'),
      ],
      [
        [1, 7, 3],
        [1, 2, 0],
        [1, 3, 1],
        [3, 5, 1],
        [3, 4, 0],
        [5, 6, 0],
      ],
    );
    assert.deepEqual(expandTrack(1, graph), [2, 3, 4, 5, 6, 7]);
  });

  it('assigns a collection as one item without walking into it', () => {
    const graph = graphOf(
      [node(1, 'track'), node(2, 'collection'), node(3, 'article')],
      [
        [1, 2, 0],
        [2, 3, 0],
      ],
    );
    assert.deepEqual(expandTrack(1, graph), [2]);
  });

  it('skips archived and invisible items with everything below them', () => {
    const graph = graphOf(
      [
        node(1, 'track'),
        node(2, 'track', { isArchived: true }),
        node(3, 'article'),
        node(4, 'track', { visible: false }),
        node(5, 'video'),
        node(6, 'guide'),
      ],
      [
        [1, 2, 0],
        [2, 3, 0],
        [1, 4, 1],
        [4, 5, 0],
        [1, 6, 2],
      ],
    );
    assert.deepEqual(expandTrack(1, graph), [6]);
  });

  it('assigns an item reachable twice once, and survives a cycle', () => {
    const graph = graphOf(
      [node(1, 'track'), node(2, 'track'), node(3, 'article')],
      [
        [1, 2, 0],
        [1, 3, 1],
        [2, 3, 0],
        [2, 1, 1],
      ],
    );
    assert.deepEqual(expandTrack(1, graph), [2, 3]);
  });

  it('ignores items missing from the node map (deleted)', () => {
    const graph = graphOf(
      [node(1, 'track'), node(3, 'article')],
      [
        [1, 2, 0],
        [1, 3, 1],
      ],
    );
    assert.deepEqual(expandTrack(1, graph), [3]);
  });
});
