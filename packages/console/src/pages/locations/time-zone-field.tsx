/**
 * A time zone picker: a text input offering the browser's IANA zones as you type (a native
 * datalist: keyboard, screen readers and phones already know it), so "berl" finds Europe/Berlin.
 * A name the list does not offer is refused beside the field before anything is sent.
 */
import { useId } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import type { BodyOf } from '../../api/types.ts';
import { Field, text } from '../../components/form.tsx';

/** The zone names the API document lists (the server's own IANA list). */
export type TimeZone = BodyOf<'/api/v2/locations', 'post'>['timezone'];

// the browser's list, computed once
const zones: readonly string[] = Intl.supportedValuesOf('timeZone');
const isListedZone = (value: string): value is TimeZone => zones.includes(value);

/** The picked zone, or the error a server would give beside the field when it is not one of the list's. */
export function pickedTimeZone(data: FormData): TimeZone {
  const value = text(data, 'timezone');
  if (isListedZone(value)) return value;
  throw new ApiError(422, {
    code: 'validation_error',
    message: 'The time zone is not one the list offers.',
    field_errors: { timezone: ['Pick a time zone from the list, e.g. Europe/Berlin.'] },
  });
}

export function TimeZoneField({ value }: { value?: string }) {
  const listId = useId();
  return (
    <Field name="timezone" label="Time zone" hint="Type part of a city or region, e.g. Berlin or New_York, and pick it from the list.">
      {(control) => (
        <>
          <input {...control} list={listId} defaultValue={value} autoComplete="off" required spellcheck={false} />
          <datalist id={listId}>
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}

/** The browser's own zone, to start a new location with. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
