/**
 * Which compression a response may use: the console's files and the API reference's both choose
 * with this, each compressing and keeping its own variants.
 */
export type Encoding = 'br' | 'gzip' | 'identity';

/** The brotli or gzip the client accepts (brotli first: smaller), else the bytes as they are. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name!.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}
