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

export function DetailPage({
  title,
  back,
  id,
  loaded,
  summary,
  children,
}: {
  title: string | undefined;
  /** the list's address and name ('groups', 'Groups') */
  back: readonly [string, string];
  id: string;
  loaded: Pick<Loaded<unknown>, 'error' | 'reload' | 'loading'>;
  summary?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const heading = title ?? (loaded.loading ? 'Loading…' : 'Not found');
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
        {summary}
        {summary ? ' · ' : null}
        <CopyId id={id} />
      </p>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {title !== undefined ? children : null}
    </section>
  );
}
