/**
 * What a repository hands back for one row: its internal id, which other tables join on and the
 * API never shows, and the public view. An area's record adds the internal keys its rules read.
 */
export interface StoredRecord<View> {
  id: number;
  view: View;
}
