/**
 * The one picker of the console: a WAI-ARIA combobox (an input with a listbox popup) that
 * searches a list route as you type, so no form asks for a raw id. Keyboard: ↓/↑ move through
 * the options (↓ opens the list), Enter picks, Esc closes the list (then clears a single choice),
 * Backspace in an empty box removes the last chip. A pasted public id or email is looked up; a
 * pasted column of several fills a multiple picker at once. The chosen ids go with the form as
 * hidden inputs named `name`, one per choice, so `list(data, name)` reads them.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Field } from './form.tsx';
import { sourceOf, type PickKind, type PickOption } from './picker-sources.ts';
import { numericId, parsePasted } from './picker-text.ts';

export interface PickerProps {
  name: string;
  label: string;
  kind: PickKind;
  multiple?: boolean;
  hint?: string;
  errorKey?: string;
  required?: boolean;
  /** choices already made (an edit form's current value) */
  initial?: PickOption[];
  /** ids to look up and show as chosen (a filter's value from the address) */
  initialIds?: string[];
  /** told of every change (filters apply at once) */
  onChange?: (chosen: PickOption[]) => void;
}

export function Picker(props: PickerProps) {
  return (
    <Field name={props.name} label={props.label} errorKey={props.errorKey} hint={props.hint}>
      {/* the box itself has no name: only what is picked is sent, never the typed text */}
      {({ name: _typed, ...control }) => <Combobox {...props} control={control} />}
    </Field>
  );
}

interface Control {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

type Listing = { state: 'closed' } | { state: 'searching' } | { state: 'shown'; options: PickOption[]; empty: string };

function Combobox({ name, label, kind, multiple, required, initial, initialIds, onChange, control }: PickerProps & { control: Control }) {
  const source = sourceOf(kind);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<PickOption[]>(initial ?? []);
  const [text, setText] = useState(!multiple && initial?.[0] ? initial[0].label : '');
  const [listing, setListing] = useState<Listing>({ state: 'closed' });
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  const latest = useRef(0);
  // the text typed while a search runs: searched when that one ends (the latest only)
  const waiting = useRef<string | undefined>(undefined);
  const searching = useRef(false);
  // a blur closes the list a moment later (so a click on an option still lands); focus coming back
  // meanwhile cancels that, or the list would close under a search typed after it
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const commit = (next: PickOption[]) => {
    setChosen(next);
    onChange?.(next);
  };

  // a filter's ids from the address are shown by name once looked up
  const wanted = (initialIds ?? []).filter(Boolean).join(',');
  useEffect(() => {
    if (!wanted) {
      // the address lost the filter (a link, the back button): show nothing chosen
      if (initialIds) {
        setChosen([]);
        setText('');
      }
      return;
    }
    let live = true;
    void Promise.all(
      wanted
        .split(',')
        .map((id) =>
          source.resolve(kind === 'location' ? { kind: 'number', value: id } : { kind: 'id', value: id }).catch(() => undefined),
        ),
    ).then((found) => {
      if (!live) return;
      const options = wanted.split(',').map((id, index) => found[index] ?? { value: id, label: id });
      setChosen(options);
      if (!multiple && options[0]) setText(options[0].label);
    });
    return () => {
      live = false;
    };
  }, [wanted, kind]);

  // the form's reset (after a successful submit) empties the picker too
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const reset = () => {
      setChosen([]);
      setText('');
      setListing({ state: 'closed' });
    };
    form.addEventListener('reset', reset);
    return () => form.removeEventListener('reset', reset);
  }, []);

  const show = (options: PickOption[], empty: string) => {
    const fresh = options.filter((option) => !chosen.some((pick) => pick.value === option.value));
    setListing({ state: 'shown', options: fresh, empty });
    setActive(fresh.length ? 0 : -1);
    setAnnouncement(fresh.length ? `${fresh.length} ${fresh.length === 1 ? 'option' : 'options'}` : empty);
  };

  /** Looks the text up: ids and emails directly, anything else by the list's search. */
  const lookUp = async (value: string) => {
    const call = ++latest.current;
    setListing({ state: 'searching' });
    try {
      const pasted = parsePasted(value);
      const number = kind === 'location' ? numericId(value) : undefined;
      if (number !== undefined) {
        const found = await source.resolve({ kind: 'number', value: String(number) });
        if (call === latest.current) show(found ? [found] : [], `No ${source.noun} numbered ${number}.`);
        return;
      }
      if (pasted.tokens.length && !pasted.rest) {
        const found = await Promise.all(pasted.tokens.map((token) => source.resolve(token)));
        if (call !== latest.current) return;
        const missing = pasted.tokens.filter((_, index) => !found[index]).map((token) => token.value);
        const hits = found.filter((option): option is PickOption => option !== undefined);
        if (multiple && pasted.tokens.length > 1) {
          // a pasted column: every one found is chosen at once, the rest stay in the box to fix
          const added = hits.filter((hit) => !chosen.some((pick) => pick.value === hit.value));
          commit([...chosen, ...added]);
          setText(missing.join(' '));
          setAnnouncement(`${added.length} added${missing.length ? `, ${missing.length} not found` : ''}.`);
          setListing(
            missing.length ? { state: 'shown', options: [], empty: `No ${source.noun} for ${missing.join(', ')}.` } : { state: 'closed' },
          );
          return;
        }
        show(hits, `No ${source.noun} for ${missing.join(', ')}.`);
        return;
      }
      const options = await source.search(value.trim());
      if (call === latest.current) show(options, value.trim() ? `No ${source.noun} matches “${value.trim()}”.` : `No ${source.noun} yet.`);
    } catch {
      if (call === latest.current) setListing({ state: 'shown', options: [], empty: 'The search failed; type again to retry.' });
    }
  };

  /**
   * Searches at once on every keystroke, with no delay to wait out (options follow a keystroke in
   * the time one search takes), but one search at a time: what is typed meanwhile waits, and only
   * the latest text is searched next, so fast typing never queues a request per key.
   */
  const schedule = async (value: string) => {
    waiting.current = value;
    if (searching.current) return;
    searching.current = true;
    try {
      while (waiting.current !== undefined) {
        const next = waiting.current;
        waiting.current = undefined;
        await lookUp(next);
      }
    } finally {
      searching.current = false;
    }
  };

  const pick = (option: PickOption) => {
    if (multiple) {
      commit([...chosen, option]);
      setText('');
    } else {
      commit([option]);
      setText(option.label);
    }
    setListing({ state: 'closed' });
    setActive(-1);
    setAnnouncement(`${option.label} chosen.`);
  };

  const remove = (option: PickOption) => {
    commit(chosen.filter((pick) => pick.value !== option.value));
    setAnnouncement(`${option.label} removed.`);
    input.current?.focus();
  };

  const close = () => {
    latest.current++;
    waiting.current = undefined;
    setListing({ state: 'closed' });
    setActive(-1);
  };

  const options = listing.state === 'shown' ? listing.options : [];
  const open = listing.state !== 'closed';
  const optionId = (index: number) => `${listId}-${index}`;

  const onKeyDown = (event: KeyboardEvent) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) void lookUp(text);
        else if (options.length) setActive((active + 1) % options.length);
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (open && options.length) setActive((active - 1 + options.length) % options.length);
        return;
      case 'Home':
      case 'End':
        if (open && options.length) {
          event.preventDefault();
          setActive(event.key === 'Home' ? 0 : options.length - 1);
        }
        return;
      case 'Enter':
        // Enter in an open list picks; it never submits the form from the box
        if (open || text.trim()) event.preventDefault();
        if (open && options[active]) pick(options[active]);
        else if (!open && text.trim()) void lookUp(text);
        return;
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          close();
        } else if (!multiple && (text || chosen.length)) {
          event.preventDefault();
          event.stopPropagation();
          setText('');
          commit([]);
        }
        return;
      case 'Backspace':
        if (multiple && !text && chosen.length) remove(chosen[chosen.length - 1]!);
        return;
      case 'Tab':
        close();
        return;
    }
  };

  return (
    <div class="picker">
      {multiple && chosen.length ? (
        <ul class="chips" aria-label={`Chosen: ${label}`}>
          {chosen.map((option) => (
            <li key={option.value} class="chip">
              <span>{option.label}</span>
              {option.detail ? <small class="muted"> {option.detail}</small> : null}
              <button type="button" class="chip-remove" aria-label={`Remove ${option.label}`} onClick={() => remove(option)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        {...control}
        ref={input}
        type="text"
        role="combobox"
        autoComplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && options[active] ? optionId(active) : undefined}
        aria-required={required && !chosen.length ? true : undefined}
        placeholder={multiple ? `Type a name${kind === 'user' ? ' or email' : ''}, or paste ids` : 'Type to search'}
        value={text}
        onInput={(event) => {
          const value = event.currentTarget.value;
          setText(value);
          if (!multiple && chosen.length) commit([]);
          void schedule(value);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => clearTimeout(closing.current)}
        onBlur={() => (closing.current = setTimeout(close, 150))}
      />
      {chosen.map((option) => (
        <input key={option.value} type="hidden" name={name} value={option.value} />
      ))}
      <ul role="listbox" id={listId} aria-label={label} aria-busy={listing.state === 'searching'} class="picker-options" hidden={!open}>
        {listing.state === 'searching' ? (
          <li role="option" aria-disabled="true" aria-selected="false" class="muted">
            Searching…
          </li>
        ) : null}
        {options.map((option, index) => (
          <li
            key={option.value}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            class={index === active ? 'active' : undefined}
            // keeps the focus in the box, so the click does not close the list first
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(option)}
          >
            <span>{option.label}</span>
            {option.detail ? <small class="muted"> {option.detail}</small> : null}
          </li>
        ))}
        {listing.state === 'shown' && !options.length ? (
          <li role="option" aria-disabled="true" aria-selected="false" class="muted empty">
            {listing.empty}
          </li>
        ) : null}
      </ul>
      <span class="visually-hidden" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
