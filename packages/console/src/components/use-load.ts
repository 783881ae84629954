import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs a load whenever `key` changes and keeps the previous data while the next arrives, so a
 * table keeps its rows (and its height) instead of jumping to empty between pages.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // a layout effect runs as soon as the rows' place is in the document, before it is painted: the
  // request then does not wait for a frame (a plain effect waits for one; on a first load, a long one)
  useLayoutEffect(() => {
    const run = ++latest.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    loadRef.current().then(
      (data) => run === latest.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => run === latest.current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
  }, [key, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}

/**
 * How many changes a page has made, for its lists to reload with (a ListView's `version`), and the
 * call that counts one more after a create or an action.
 */
export function useVersion(): [version: number, changed: () => void] {
  const [version, setVersion] = useState(0);
  return [version, () => setVersion((n) => n + 1)];
}

/**
 * A record's page: the record loaded by its id, and loaded again after each change the page makes
 * (`changed`); `version` counts those changes, for the page's lists to reload with it.
 */
export function useRecord<T>(id: string, load: () => Promise<T>): { loaded: Loaded<T>; version: number; changed: () => void } {
  const [version, changed] = useVersion();
  const loaded = useLoad(load, `${id}|${version}`);
  return { loaded, version, changed };
}
