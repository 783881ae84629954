/**
 * A mistake in how the command was called that only shows once it runs (a --db path with no
 * database, a --role that contradicts the stored user): one line on stderr and exit code 2, like
 * commander's own usage errors.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
