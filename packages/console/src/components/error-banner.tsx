import { ApiError } from '../api/client.ts';

/**
 * What went wrong, never a blank: a 403 explains that the token's role or scopes do not allow
 * this, a network failure or a 5xx offers a retry.
 */
export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error instanceof ApiError && error.status === 403) return <Forbidden message={error.message} />;
  const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
  const retryable = !(error instanceof ApiError) || error.retryable;
  return (
    <div class="banner error" role="alert">
      <p>
        {message}
        {error instanceof ApiError && error.envelope?.request_id ? <span class="muted"> (request {error.envelope.request_id})</span> : null}
      </p>
      {retryable && onRetry ? (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function Forbidden({ message }: { message?: string }) {
  return (
    <div class="banner warning" role="alert">
      <h2>Not allowed</h2>
      <p>
        Your API token may not do this: its role or scopes do not include it. Ask an administrator for a token with the right scope, or sign
        in with another token.
      </p>
      {message ? <p class="muted">The server said: {message}</p> : null}
    </div>
  );
}
