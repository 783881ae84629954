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

/** The page's h1: the record's `name`, so only a record without one (an import, a job) says how it is titled. */
type Heading<T> = T extends { name: string } ? { title?: (record: T) => string } : { title: (record: T) => string };

export function DetailPage<T>({
  loaded,
  title = nameOf,
  back,
  id,
  summary,
  children,
}: {
  /** the record's load: until it has data the page says it is loading (or not found) and shows nothing else */
  loaded: Loaded<T>;
  /** the list's address and name ('groups', 'Groups') */
  back: readonly [string, string];
  id: string;
  summary?: (record: T) => ComponentChildren;
  /** the page's sections, drawn once the record is there */
  children?: (record: T) => ComponentChildren;
} & Heading<T>) {
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

/** A named record's name (the props' type sees that a record without a `title` has one). */
function nameOf(record: unknown): string {
  return typeof record === 'object' && record !== null && 'name' in record ? String(record.name) : '';
}
