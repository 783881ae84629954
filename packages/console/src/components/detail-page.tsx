/**
 * The frame of every detail page: the way back to its list, the record's name as the page's one
 * h1 (the section is a region named by it), its id ready to copy, then the page's sections.
 */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { CopyId } from './copy-id.tsx';
import { ErrorBanner } from './error-banner.tsx';
import { Link } from './link.tsx';
import type { Loaded } from './use-load.ts';

export function DetailPage<T>({
  loaded,
  title,
  back,
  id,
  summary,
  children,
}: {
  /** the record's load: until it has data the page says it is loading (or not found) and shows nothing else */
  loaded: Loaded<T>;
  title: (record: T) => string;
  /** the list's address and name ('groups', 'Groups') */
  back: readonly [string, string];
  id: string;
  summary?: (record: T) => ComponentChildren;
  /** the page's sections, drawn once the record is there */
  children?: (record: T) => ComponentChildren;
}) {
  const record = loaded.data;
  const heading = record !== undefined ? title(record) : loaded.loading ? 'Loading…' : 'Not found';
  const shownSummary = record !== undefined && summary ? summary(record) : null;
  useEffect(() => {
    document.title = `${heading} · Lectern`;
  }, [heading]);
  return (
    <section class="detail-page" aria-labelledby="detail-title">
      <p class="back">
        <Link to={back[0]}>Back to {back[1].toLowerCase()}</Link>
      </p>
      <h1 id="detail-title">{heading}</h1>
      <p class="muted">
        {shownSummary}
        {shownSummary ? ' · ' : null}
        <CopyId id={id} />
      </p>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {record !== undefined && children ? children(record) : null}
    </section>
  );
}
