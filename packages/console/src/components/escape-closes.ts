/**
 * Esc closes what is open, innermost first: the disclosure (`<details>`) holding the focus, else
 * the page's detail panel, else a record's page (back to its list, as the panels it replaced did). Widgets with their own Esc (a combobox's list) stop the event first.
 */
import { BASE, navigate, PANEL_PARAMS, pageName, place, query, setQuery, subPaths } from '../router.ts';

function closeOpenDisclosure(target: EventTarget | null): boolean {
  const details = target instanceof Element ? target.closest('details[open]') : null;
  if (!(details instanceof HTMLDetailsElement)) return false;
  details.open = false;
  details.querySelector('summary')?.focus();
  return true;
}

function closePanel(): boolean {
  const open = query();
  const panels = PANEL_PARAMS.filter((name) => open.has(name));
  if (panels.length === 0) return false;
  setQuery(Object.fromEntries(panels.map((name) => [name, undefined])));
  document.getElementById('main')?.focus();
  return true;
}

function leaveDetailPage(): boolean {
  const path = place.value.path;
  if (subPaths(path).length === 0) return false;
  navigate(`${BASE}/${pageName(path)}`);
  document.getElementById('main')?.focus();
  return true;
}

export function installEscapeCloses(): void {
  addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    if (closeOpenDisclosure(event.target) || closePanel() || leaveDetailPage()) event.preventDefault();
  });
}
