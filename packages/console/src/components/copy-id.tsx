/** An id shown in full, selectable, with a button that copies it (the API and CLI take ids). */
import { useState } from 'preact/hooks';

export function CopyId({ id, label = 'id' }: { id: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <span class="copy-id">
      {label} <code>{id}</code>{' '}
      <button
        type="button"
        aria-label={`Copy ${label} ${id}`}
        onClick={() =>
          navigator.clipboard.writeText(id).then(
            () => setCopied('yes'),
            // a browser that refuses the clipboard (no permission): the id stays selectable
            () => setCopied('no'),
          )
        }
      >
        Copy
      </button>
      <span role="status" class="muted">
        {copied === 'yes' ? ' Copied.' : copied === 'no' ? ' Select the id to copy it.' : ''}
      </span>
    </span>
  );
}
