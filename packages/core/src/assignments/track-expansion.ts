/**
 * Which items assigning a track also assigns (docs/assignments.md): every item of the track, and of the
 * tracks and scheduled tracks it holds, recursively. Pure, over a graph the store loads in one query.
 *
 * Decisions where the specification is silent:
 * - Only tracks and scheduled tracks are walked into; a collection held by a track is assigned as
 *   one item (a collection is a shelf, not a curriculum).
 * - An item the assigning caller may not see, or that is archived, is skipped along with
 *   everything below it: archived content takes no new assignments, and walking into an invisible
 *   track would assign what the caller cannot know exists.
 * - Order is depth-first in each container's own order; an item reachable twice is assigned once.
 */
import type { ContentType } from '../content/content-item.ts';

export interface TrackNode {
  id: number;
  contentType: ContentType;
  isArchived: boolean;
  /** whether the caller may see it (content visibility rules) */
  visible: boolean;
}

export interface TrackEdge {
  parentId: number;
  itemId: number;
  position: number;
}

export interface TrackGraph {
  nodes: ReadonlyMap<number, TrackNode>;
  edges: readonly TrackEdge[];
}

/** Tracks and scheduled tracks: the containers that are walked into and whose assignment follows its items. */
export const isTrack = (type: ContentType): boolean => type === 'track' || type === 'scheduled_track';

/** The ids to assign besides the root (a track or scheduled track, which the caller has checked), in order. */
export function expandTrack(rootId: number, graph: TrackGraph): number[] {
  const children = new Map<number, TrackEdge[]>();
  for (const edge of graph.edges) {
    const list = children.get(edge.parentId) ?? [];
    list.push(edge);
    children.set(edge.parentId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.position - b.position);

  const seen = new Set<number>([rootId]);
  const out: number[] = [];
  const visit = (parentId: number) => {
    for (const { itemId } of children.get(parentId) ?? []) {
      if (seen.has(itemId)) continue;
      seen.add(itemId);
      const node = graph.nodes.get(itemId);
      if (!node || !node.visible || node.isArchived) continue;
      out.push(itemId);
      if (isTrack(node.contentType)) visit(itemId);
    }
  };
  visit(rootId);
  return out;
}
