/** A button that runs one API call, busy while it runs, with the failure shown beside it. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorBanner } from './error-banner.tsx';

export function ActionButton({
  label,
  run,
  done,
  danger,
  confirm,
  children,
  name,
}: {
  label: string;
  /** the accessible name when the label alone is ambiguous in a table */ name?: string;
  run: () => Promise<unknown>;
  done?: () => void;
  danger?: boolean;
  confirm?: string;
  children?: ComponentChildren;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  return (
    <>
      <button
        type="button"
        class={danger ? 'danger' : undefined}
        disabled={busy}
        aria-busy={busy}
        aria-label={name}
        onClick={async () => {
          if (confirm && !window.confirm(confirm)) return;
          setBusy(true);
          setError(undefined);
          try {
            await run();
            done?.();
          } catch (caught) {
            setError(caught);
          } finally {
            setBusy(false);
          }
        }}
      >
        {children ?? label}
      </button>
      {error ? <ErrorBanner error={error} /> : null}
    </>
  );
}

/** A value shown once (a new token, a webhook secret) with a copy button. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="banner success" role="status">
      <p>
        <strong>{label}</strong> It is shown only this once: copy it now.
      </p>
      <div class="secret">
        <code>{value}</code>
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          Copy
        </button>
        {copied ? <span role="status">Copied.</span> : null}
      </div>
    </div>
  );
}
