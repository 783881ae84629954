import type { ComponentChildren } from 'preact';
import { BASE, navigate } from '../router.ts';

/** An ordinary link (so it can be opened in a new tab) that the router follows in place. */
export function Link({
  to,
  children,
  class: className,
  current,
}: {
  to: string;
  children: ComponentChildren;
  class?: string;
  current?: boolean;
}) {
  const href = to.startsWith('/') ? to : `${BASE}/${to}`;
  return (
    <a
      href={href}
      class={className}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
