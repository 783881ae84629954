/**
 * The API token of this tab. Kept in sessionStorage only: it survives a reload but not the tab,
 * and never travels in a URL or lands in localStorage, where other tabs and later visitors could
 * read it.
 */
import { signal } from '@preact/signals';
import { api } from '../api/client.ts';

const KEY = 'lectern.token';

const read = () => {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
};

export const token = signal<string | null>(read());

// every request of the tab carries its token; registered with the token, before any request
api.use({
  onRequest({ request }) {
    const value = token.value;
    if (value) request.headers.set('Authorization', `Bearer ${value}`);
    return request;
  },
});

export function rememberToken(value: string): void {
  sessionStorage.setItem(KEY, value);
  token.value = value;
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
  token.value = null;
}
