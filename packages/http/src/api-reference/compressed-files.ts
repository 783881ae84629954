/**
 * The OpenAPI document (~400 KB) and the viewer's bundle (1.7 MB) are the largest answers Lectern
 * gives and the same at every request: each is compressed once per encoding, off the event loop
 * (zlib's thread pool), and the result kept. The encoding is chosen as for the console's files
 * (content-encoding.ts).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { document, type Reply } from '../reply.ts';
import { negotiateEncoding } from '../content-encoding.ts';

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

type Encoded = 'br' | 'gzip';

/** A fixed body served as is or compressed, whichever the request's Accept-Encoding prefers. */
export class CompressedFile {
  private readonly variants = new Map<Encoded, Promise<Buffer>>();

  constructor(
    private readonly type: string,
    private readonly bytes: () => Buffer,
    private readonly headers: Record<string, string> = {},
  ) {}

  async reply(acceptEncoding: string | undefined): Promise<Reply> {
    const encoding = negotiateEncoding(acceptEncoding);
    const headers = { ...this.headers, Vary: 'Accept-Encoding' };
    if (encoding === 'identity') return document(this.type, this.bytes(), headers);
    return document(this.type, await this.compressed(encoding), { ...headers, 'Content-Encoding': encoding });
  }

  private compressed(encoding: Encoded): Promise<Buffer> {
    let found = this.variants.get(encoding);
    if (!found) {
      const bytes = this.bytes();
      // brotli's quality 5: within 3 % of its best on the bundle, in a fortieth of the time
      found =
        encoding === 'br'
          ? compressBrotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
          : compressGzip(bytes, { level: 9 });
      // a failure is not kept: the next request tries again
      found.catch(() => this.variants.delete(encoding));
      this.variants.set(encoding, found);
    }
    return found;
  }
}
