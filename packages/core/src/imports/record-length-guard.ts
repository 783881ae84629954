/**
 * Keeps a CSV record longer than the limit, or with more fields than the limit, away from the
 * parser: its bytes are dropped as they arrive, and a marker record takes its place, so its row
 * fails as unread while the rows after it are read as usual (csv-parse's own size limit can only
 * stop the whole file, and it would build an array of every field of a wide row first: a 800 KB
 * row of 400 000 empty fields cost some 55 MB). Only what finds a record's end and counts its
 * fields is tracked here: whether a double quote is open, and commas and line ends outside quotes;
 * the fields themselves are the parser's. The record being read is held back until it ends, at
 * most the limit's bytes, so it can be dropped whole.
 */

/** The single field of the record that stands for a dropped one (NUL cannot come from a real cell). */
export const TOO_LONG_MARKER = '\u0000too long\u0000';
const MARKER = Buffer.from(TOO_LONG_MARKER, 'latin1');
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

export async function* guardRecordLength(
  source: AsyncIterable<Buffer | Uint8Array>,
  maxBytes: number,
  maxFields = Infinity,
): AsyncGenerator<Buffer> {
  let quoted = false;
  /** the current record's fields so far */
  let fields = 1;
  let dropping = false;
  /** the current record's bytes from earlier chunks, while it is being kept */
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const piece of source) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    const out: Buffer[] = [];
    /** where the chunk's bytes not yet written out (nor dropped) begin */
    let from = 0;
    /** where the current record begins in this chunk (0 when it began in an earlier one) */
    let recordStart = 0;
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (byte === QUOTE) quoted = !quoted;
      else if ((byte === LF || byte === CR) && !quoted) {
        if (dropping) {
          // the marker ends as the dropped record did, with this line end: the parser takes the
          // file's line ends from its first line (CRLF or LF), and only those end a record
          out.push(MARKER);
          dropping = false;
          from = at;
        } else if (held.length > 0) {
          // the record that began in an earlier chunk ends here: its start goes out first
          out.push(...held);
          held = [];
        }
        heldBytes = 0;
        fields = 1;
        recordStart = at + 1;
      } else if (!dropping && ((byte === COMMA && !quoted && ++fields > maxFields) || heldBytes + (at + 1 - recordStart) > maxBytes)) {
        dropping = true;
        if (recordStart > from) out.push(chunk.subarray(from, recordStart));
        held = [];
        heldBytes = 0;
      }
    }
    if (!dropping) {
      if (recordStart > from) out.push(chunk.subarray(from, recordStart));
      if (recordStart < chunk.length) {
        // copied: the source may reuse its buffer for the next chunk
        const rest = Buffer.from(chunk.subarray(recordStart));
        held.push(rest);
        heldBytes += rest.length;
      }
    }
    if (out.length > 0) yield Buffer.concat(out);
  }
  if (dropping) yield MARKER;
  else if (held.length > 0) yield Buffer.concat(held);
}
