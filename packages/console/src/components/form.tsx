/**
 * Forms: the API's `non_field_errors` above the form, each `field_errors` entry beside its field
 * (announced with aria-describedby and aria-invalid), and the submit button busy while it runs.
 * An entry of an array (`member_ids.0`) lands on the array's field; an entry no field shows goes
 * above the form with the rest, so no error is ever dropped.
 */
import { createContext, type ComponentChildren, type InputHTMLAttributes, type LooseInputHTMLAttributes, type TargetedEvent } from 'preact';
import { useContext, useId, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';
import { ErrorBanner } from './error-banner.tsx';
import { errorsOf, strayErrors } from './field-errors.ts';

interface FieldErrorState {
  errors: Record<string, string[]>;
  /** a field says which name it shows errors for, while it is on the page */
  show: (name: string) => () => void;
}

const FieldErrors = createContext<FieldErrorState>({ errors: {}, show: () => () => undefined });

/** The errors for `name`, and its registration as the field that shows them. */
function useFieldErrors(name: string): string[] {
  const state = useContext(FieldErrors);
  useLayoutEffect(() => state.show(name), [state, name]);
  return errorsOf(state.errors, name);
}

export interface FormProps {
  onSubmit: (data: FormData, form: HTMLFormElement) => Promise<unknown>;
  submitLabel: string;
  children: ComponentChildren;
  /** what the form does, for readers of the code (forms are not named: a name would collide with its fields' labels) */
  label?: string;
  class?: string;
  /**
   * Changing it redraws the inputs with their new default values (after the record changed). Not
   * a `key` on the Form: a keyed component among unkeyed siblings let a sibling form inherit its state.
   */
  resetKey?: string | number;
  /** reset the inputs after a success */
  resetOnSuccess?: boolean;
}

export function Form({ onSubmit, submitLabel, children, class: className, resetOnSuccess, resetKey }: FormProps) {
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  // how many fields on the page show each name (a count: the same name may appear twice)
  const shown = useRef(new Map<string, number>());
  const state = useMemo<FieldErrorState>(
    () => ({
      errors: error instanceof ApiError ? error.fieldErrors : {},
      show: (name) => {
        shown.current.set(name, (shown.current.get(name) ?? 0) + 1);
        return () => shown.current.set(name, (shown.current.get(name) ?? 1) - 1);
      },
    }),
    [error],
  );
  const fieldErrors = state.errors;
  const shownNames = [...shown.current].filter(([, count]) => count > 0).map(([name]) => name);
  const nonField = [...(error instanceof ApiError ? error.nonFieldErrors : []), ...strayErrors(fieldErrors, shownNames)];
  // an error the fields cannot show (a 403, 5xx, network failure, or one naming no field) shows above
  const unplaced = error !== undefined && nonField.length === 0 && Object.keys(fieldErrors).length === 0;
  const submit = async (event: TargetedEvent<HTMLFormElement, SubmitEvent>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    try {
      await onSubmit(new FormData(form), form);
      setError(undefined);
      if (resetOnSuccess) form.reset();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form key={resetKey} class={className ?? 'form'} onSubmit={submit} noValidate>
      {nonField.length ? (
        <div class="banner error" role="alert">
          <ul>
            {nonField.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {unplaced ? <ErrorBanner error={error} /> : null}
      <FieldErrors.Provider value={state}>{children}</FieldErrors.Provider>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} aria-busy={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * A form folded under a one-line summary (a <details>), opened when wanted: the create and edit
 * forms beside a list or a record. The summary also says what the form does.
 */
export function FoldedForm({ summary, ...form }: Omit<FormProps, 'label'> & { summary: string }) {
  return (
    <details>
      <summary>{summary}</summary>
      <Form {...form} />
    </details>
  );
}

/**
 * The form that makes one record beside its list: folded under "New <noun>", sent with "Create
 * <noun>" and emptied once `create` answered, which `onCreated` then receives (to refresh the
 * list, open the new record, show a secret once).
 */
export function CreateForm<T>({
  noun,
  create,
  onCreated,
  children,
}: {
  noun: string;
  create: (data: FormData) => Promise<T>;
  onCreated: (made: T) => void;
  children: ComponentChildren;
}) {
  return (
    <FoldedForm
      summary={`New ${noun}`}
      submitLabel={`Create ${noun}`}
      resetOnSuccess
      onSubmit={async (data) => onCreated(await create(data))}
    >
      {children}
    </FoldedForm>
  );
}

type InputProps = Omit<LooseInputHTMLAttributes<HTMLInputElement>, 'label' | 'name' | 'children'>;

export interface FieldProps {
  name: string;
  label: string;
  /** the name the API's field_errors use, when it differs from the input's */
  errorKey?: string;
  hint?: string;
  children?: (props: { id: string; name: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren;
}

/** A labelled control with its hint and the API's errors beside it; an <input> unless children render another. */
export function Field({ name, label, errorKey, hint, children, ...rest }: FieldProps & InputProps) {
  // the input's own attributes, whatever its type (the strict type is a union per input type)
  const input = rest as InputHTMLAttributes<HTMLInputElement>;
  const id = useId();
  const errors = useFieldErrors(errorKey ?? name);
  const describedBy = [hint ? `${id}-hint` : '', errors.length ? `${id}-errors` : ''].filter(Boolean).join(' ') || undefined;
  const control = { id, name, 'aria-describedby': describedBy, 'aria-invalid': errors.length ? true : undefined };
  const checkbox = rest.type === 'checkbox';
  return (
    <div class={checkbox ? 'field checkbox' : 'field'}>
      {checkbox ? <input {...input} {...control} /> : null}
      <label for={id}>{label}</label>
      {checkbox ? null : children ? children(control) : <input {...input} {...control} />}
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
      {errors.length ? (
        <ul id={`${id}-errors`} class="field-errors">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A select field. */
export function SelectField({
  name,
  label,
  options,
  value,
  errorKey,
  hint,
}: {
  name: string;
  label: string;
  options: readonly (string | [string, string])[];
  value?: string;
  errorKey?: string;
  hint?: string;
}) {
  return (
    <Field name={name} label={label} errorKey={errorKey} hint={hint}>
      {(control) => (
        <select {...control} defaultValue={value}>
          {options.map((option) => {
            const [optionValue, text] = typeof option === 'string' ? [option, option] : option;
            return (
              <option key={optionValue} value={optionValue}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

/** Helpers reading FormData as the API's JSON wants it. */
export const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim();
export const optionalText = (data: FormData, name: string) => text(data, name) || undefined;
export const nullableText = (data: FormData, name: string) => text(data, name) || null;
export const checked = (data: FormData, name: string) => data.get(name) === 'on';
/** Every value given under `name` (a picker sends one hidden input per choice), split on spaces and commas. */
export const list = (data: FormData, name: string) =>
  data
    .getAll(name)
    .flatMap((value) => String(value).split(/[\s,]+/))
    .filter(Boolean);
export const integer = (data: FormData, name: string) => {
  const value = text(data, name);
  return value === '' ? undefined : Number(value);
};

/** The API's errors for a field the form shows as a group (a fieldset of checkboxes). */
export function ErrorsFor({ name }: { name: string }) {
  const errors = useFieldErrors(name);
  return errors.length ? (
    <ul class="field-errors">
      {errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  ) : null;
}

/**
 * The ids a picker sent, refusing none before anything is sent: a name typed but not picked (or
 * matching nobody) sends no id, and the person is told so beside the picker.
 */
export function picked(data: FormData, name: string, message = 'Pick at least one from the list.'): string[] {
  const ids = list(data, name);
  if (!ids.length) throw new ApiError(422, { code: 'validation_error', message, field_errors: { [name]: [message] } });
  return ids;
}
