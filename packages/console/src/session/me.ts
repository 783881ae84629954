/** Who the token belongs to and what it may do (GET /api/v2/me/), deciding which pages and actions show. */
import { computed, signal } from '@preact/signals';
import { api, unwrap } from '../api/client.ts';
import type { Me, Scope } from '../api/types.ts';

export const me = signal<Me | null>(null);

export async function loadMe(): Promise<Me> {
  const value = await unwrap(api.GET('/api/v2/me'));
  me.value = value;
  return value;
}

const scopes = computed(() => new Set<string>(me.value?.token?.scopes ?? []));

/** Whether the signed-in token carries the scope (the server still decides; this only hides what would be refused). */
export function can(scope: Scope): boolean {
  return scopes.value.has(scope);
}

export const role = computed(() => me.value?.user.role ?? null);
