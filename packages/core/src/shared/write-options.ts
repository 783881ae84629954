/** What a write use case takes beside its input, in every area. */
export interface WriteOptions {
  /** the client's `If-Match` header, checked against the current representation inside the transaction */
  ifMatch?: string;
}
