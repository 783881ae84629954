/**
 * The bar over a list while rows are selected: how many, the list's bulk actions and "Clear
 * selection". A destructive action asks once more in the bar itself (focus moves to the
 * confirmation, Cancel goes back); an action that needs more (a group to assign to) opens its own
 * small form. The outcome stays after the list reloads: how many rows changed and, per failed
 * row, its name and the API's reason.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { BulkOutcome } from './bulk-outcome.ts';
import { ErrorBanner } from './error-banner.tsx';
import type { Selection } from './selection.ts';

interface ActionBase {
  label: string;
}
/** An action that runs on the selected rows as soon as it is confirmed (if it asks to be). */
export interface RunAction<T> extends ActionBase {
  danger?: boolean;
  /** the question a destructive action asks before it runs */
  confirm?: (rows: T[]) => string;
  run: (rows: T[]) => Promise<BulkOutcome>;
  /**
   * Rows already in the state the action leads to (an inactive user for Deactivate): the API would
   * answer 200 and the count would call them changed, so they are left out and told apart.
   */
  skip?: { when: (row: T) => boolean; already: string };
}
/** An action that asks for more (a form) before it runs, then reports through `finish`. */
export interface PanelAction<T> extends ActionBase {
  panel: (rows: T[], finish: (outcome: BulkOutcome) => void) => ComponentChildren;
}
export type BulkAction<T> = RunAction<T> | PanelAction<T>;

/** What a list needs to offer selection: a name per row (its box's label) and the actions. */
export interface Selectable<T> {
  /** what a row is, one and many ("user", "users"), for the counts */
  noun: readonly [string, string];
  rowName: (row: T) => string;
  actions: readonly BulkAction<T>[];
  /** told after an action ran, for a page whose other parts change with it (an event's wait list) */
  done?: () => void;
}

/** "1 user", "3 users" */
export const counted = (count: number, [one, many]: readonly [string, string]) => `${count} ${count === 1 ? one : many}`;

export function BulkBar<T>({
  caption,
  selection,
  selectable: { actions, noun },
  onDone,
}: {
  caption: string;
  selection: Selection<T>;
  selectable: Selectable<T>;
  onDone: () => void;
}) {
  const [open, setOpen] = useState<BulkAction<T> | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const report = useRef<HTMLDivElement>(null);
  // the action button that opened the confirmation or form, where Cancel and Esc take the focus back
  const opener = useRef<HTMLButtonElement | null>(null);
  const rows = selection.rows;
  const openAction = open && rows.length ? open : null;

  useEffect(() => {
    if (openAction && 'run' in openAction) confirmButton.current?.focus();
  }, [openAction]);
  useEffect(() => {
    if (outcome || error) report.current?.focus();
  }, [outcome, error]);

  const finish = (result: BulkOutcome) => {
    setOutcome(result);
    setOpen(null);
    selection.clear();
    onDone();
  };
  const cancel = () => {
    setOpen(null);
    opener.current?.focus();
  };
  const start = async (action: RunAction<T>) => {
    setBusy(true);
    setError(undefined);
    setOutcome(null);
    const { todo, skipped } = split(action, rows);
    try {
      const result = todo.length ? await action.run(todo) : { done: '', succeeded: 0, failures: [] };
      finish(skipped.length && action.skip ? { ...result, skipped: { count: skipped.length, already: action.skip.already } } : result);
    } catch (caught) {
      setError(caught);
      setOpen(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {rows.length ? (
        <section
          class="bulk-bar"
          aria-label={`Bulk actions on ${caption.toLowerCase()}`}
          onKeyDown={(event) => {
            // Esc closes the confirmation or form first (a picker inside closes its own list first)
            if (event.key !== 'Escape' || event.defaultPrevented || !openAction) return;
            event.preventDefault();
            cancel();
          }}
        >
          <p>
            <strong>{rows.length} selected</strong>
          </p>
          <div class="actions">
            {actions.map((action) => (
              <button
                key={action.label}
                type="button"
                class={'danger' in action && action.danger ? 'danger' : undefined}
                disabled={busy}
                aria-expanded={'panel' in action ? openAction === action : undefined}
                onClick={(event) => {
                  opener.current = event.currentTarget;
                  setOutcome(null);
                  setError(undefined);
                  if ('panel' in action) setOpen(openAction === action ? null : action);
                  else if (action.confirm) setOpen(action);
                  else void start(action);
                }}
              >
                {action.label}
              </button>
            ))}
            <button type="button" disabled={busy} onClick={() => (setOpen(null), selection.clear())}>
              Clear selection
            </button>
          </div>
          {openAction && 'run' in openAction ? (
            <div class="bulk-confirm" role="group" aria-label={`Confirm: ${openAction.label}`}>
              <p>
                {openAction.confirm?.(split(openAction, rows).todo)}
                {alreadySentence(split(openAction, rows).skipped.length, openAction.skip?.already, ' ')}
              </p>
              <div class="actions">
                <button
                  ref={confirmButton}
                  type="button"
                  class={openAction.danger ? 'danger' : 'primary'}
                  disabled={busy}
                  aria-busy={busy}
                  onClick={() => void start(openAction)}
                >
                  {`Yes, ${openAction.label.toLowerCase()} ${counted(split(openAction, rows).todo.length, noun)}`}
                </button>
                <button type="button" disabled={busy} onClick={cancel}>
                  Cancel
                </button>
              </div>
            </div>
          ) : null}
          {openAction && 'panel' in openAction ? <div class="bulk-panel">{openAction.panel(rows, finish)}</div> : null}
        </section>
      ) : null}
      <div ref={report} tabIndex={-1} class="bulk-report">
        {error ? <ErrorBanner error={error} /> : null}
        {outcome ? <OutcomeReport outcome={outcome} noun={noun} dismiss={() => setOutcome(null)} /> : null}
      </div>
    </>
  );
}

/** The rows an action would change, and those already as it would leave them. */
function split<T>(action: RunAction<T>, rows: T[]): { todo: T[]; skipped: T[] } {
  const skip = action.skip;
  if (!skip) return { todo: rows, skipped: [] };
  return { todo: rows.filter((row) => !skip.when(row)), skipped: rows.filter(skip.when) };
}

/** "1 was already inactive." */
function alreadySentence(count: number, already: string | undefined, before = ''): string {
  if (!count || !already) return '';
  return `${before}${count} ${count === 1 ? 'was' : 'were'} already ${already}.`;
}

function OutcomeReport({ outcome, noun, dismiss }: { outcome: BulkOutcome; noun: readonly [string, string]; dismiss: () => void }) {
  const total = outcome.succeeded + outcome.failures.length;
  const already = alreadySentence(outcome.skipped?.count ?? 0, outcome.skipped?.already);
  return (
    <div class={outcome.failures.length ? 'banner warning' : 'banner success'} role={outcome.failures.length ? 'alert' : 'status'}>
      <p>
        {total ? `${outcome.done}: ${outcome.succeeded} of ${counted(total, noun)}. ` : 'Nothing to change: '}
        {already ? `${already} ` : ''}
        {outcome.failures.length ? `${outcome.failures.length} failed:` : ''}
      </p>
      {outcome.failures.length ? (
        <ul>
          {outcome.failures.map((failure, index) => (
            <li key={index}>
              <strong>{failure.name}</strong>: {failure.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {outcome.note ? <p>{outcome.note}</p> : null}
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
