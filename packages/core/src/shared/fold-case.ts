/**
 * The one case folding of Lectern: what `search`, `ilike` and email uniqueness ignore. It folds every
 * Unicode letter (`ПРИВЕТ` → `привет`, `É` → `é`), as Python's str.lower does for the RQL peers, after
 * composing the text to NFC so that `e` + U+0301 and `é` fold alike.
 *
 * SQL must fold with exactly this function, not with the database's own lower(): storage either keeps
 * a column holding the folded value (users.email_lower) or calls this function from SQL (SQLite:
 * the `lectern_fold` function registered on every connection).
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toLowerCase();
}
