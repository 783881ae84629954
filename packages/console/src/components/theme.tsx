/**
 * Light or dark: the console follows the system's `prefers-color-scheme` until the person picks one
 * with the header's toggle; the pick is kept in localStorage (a preference, nothing secret). The
 * stylesheet declares every colour once as `light-dark(light, dark)`, so the whole switch is the
 * root's `data-theme`, which sets `color-scheme`.
 */
import { signal } from '@preact/signals';

export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'lectern-theme';
const systemDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

function stored(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null; // storage refused (a private window's policy): follow the system
  }
}

/** the theme in effect; charts read it to redraw with the new colours */
export const theme = signal<Theme>('light');

function apply(chosen: Theme | null): void {
  theme.value = chosen ?? (systemDark() ? 'dark' : 'light');
  if (chosen) document.documentElement.dataset.theme = chosen;
  else delete document.documentElement.dataset.theme;
}

/** At start: the stored pick, else the system's, and follow the system while nothing is picked. */
export function installTheme(): void {
  apply(stored());
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => apply(stored()));
}

export function ThemeToggle() {
  const dark = theme.value === 'dark';
  return (
    <button
      type="button"
      class="theme-toggle"
      aria-pressed={dark}
      onClick={() => {
        const next: Theme = dark ? 'light' : 'dark';
        try {
          localStorage.setItem(STORAGE_KEY, next);
        } catch {
          // not kept: it still applies to this tab
        }
        apply(next);
      }}
    >
      Dark mode
    </button>
  );
}

/**
 * A colour custom property as the page shows it now, for canvas drawing: the property itself holds
 * `light-dark(…)` unresolved, so a probe element inside `within` resolves it to the used colour.
 */
export function cssColour(name: string, within: HTMLElement): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`; // the CSSOM, not a style attribute: the CSP allows it
  within.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}
