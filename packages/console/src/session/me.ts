/** Who the token belongs to and what it may do (GET /api/v2/me/), deciding which pages and actions show. */
import { computed, signal } from '@preact/signals';
import { api, unwrap } from '../api/client.ts';
import type { Me, Scope } from '../api/types.ts';

export const me = signal<Me | null>(null);

let inFlight: Promise<Me> | undefined;

/** Asks the server who the token is; a call while a request is under way shares that request. */
export function loadMe(): Promise<Me> {
  inFlight ??= unwrap(api.GET('/api/v2/me')).then(
    (value) => {
      inFlight = undefined;
      me.value = value;
      return value;
    },
    (caught: unknown) => {
      inFlight = undefined;
      throw caught;
    },
  );
  return inFlight;
}

const scopes = computed(() => new Set<string>(me.value?.token?.scopes ?? []));

/** Whether the signed-in token carries the scope (the server still decides; this only hides what would be refused). */
export function can(scope: Scope): boolean {
  return scopes.value.has(scope);
}

export const role = computed(() => me.value?.user.role ?? null);
