import { createContext, useContext, useId, type FormEvent, type ReactNode } from 'react';
import { useMe } from './access';
import { errorMessage, fieldOf } from './api';

const FormError = createContext<{ message: string | null; fields?: readonly string[] }>({
  message: null,
});

/**
 * A form whose failed submission shows the API's message at the top (an error summary) and
 * beside the field it names. `onSubmit` runs without a page load.
 */
export function Form({
  onSubmit,
  error,
  pending,
  submitLabel = 'Save',
  onCancel,
  children,
  label,
  fields,
}: {
  /**
   * The API names of the form's fields: the message then shows beside the one it is about, and
   * only that one. Without it, beside a field only when the message starts with its name.
   */
  fields?: readonly string[];
  onSubmit(): void;
  error?: unknown;
  pending?: boolean;
  submitLabel?: string;
  onCancel?(): void;
  children: ReactNode;
  label?: string;
}) {
  const message = error ? errorMessage(error) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="ui-form" onSubmit={submit} aria-label={label} noValidate>
      {message && (
        <div className="ui-banner ui-banner-danger" role="alert">
          {message}
        </div>
      )}
      <FormError.Provider value={{ message, fields }}>{children}</FormError.Provider>
      <div className="ui-actions">
        <button type="submit" className="ui-button ui-button-primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="ui-button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

interface FieldProps {
  label: string;
  /** The API's field name: a validation message naming it shows beside this field. */
  name: string;
  hint?: string;
  required?: boolean;
}

function useFieldError(name: string): string | null {
  const { message, fields } = useContext(FormError);
  if (!message) return null;
  const about = fields ? fieldOf(message, fields) : fieldOf(message, [name], { loose: false });
  return about === name ? message : null;
}

function Labelled({
  label,
  name,
  hint,
  required,
  children,
}: FieldProps & {
  children(id: string, describedBy: string | undefined, invalid: boolean): ReactNode;
}) {
  const id = useId();
  const error = useFieldError(name);
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={`ui-field${error ? ' ui-field-invalid' : ''}`}>
      <div className="ui-label">
        <label htmlFor={id}>{label}</label>
        {/* Outside the label: the field's accessible name stays its label; `required` says it. */}
        {required && <span aria-hidden="true"> *</span>}
      </div>
      {children(id, describedBy || undefined, Boolean(error))}
      {hint && (
        <small id={`${id}-hint`} className="ui-muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="ui-field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export function TextField({
  value,
  onChange,
  type = 'text',
  multiline,
  rows = 4,
  placeholder,
  ...field
}: FieldProps & {
  value: string;
  onChange(value: string): void;
  type?: 'text' | 'number' | 'email' | 'url' | 'password' | 'date' | 'datetime-local';
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
}) {
  return (
    <Labelled {...field}>
      {(id, describedBy, invalid) =>
        multiline ? (
          <textarea
            id={id}
            name={field.name}
            rows={rows}
            value={value}
            placeholder={placeholder}
            required={field.required}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input
            id={id}
            name={field.name}
            type={type}
            value={value}
            placeholder={placeholder}
            required={field.required}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Labelled>
  );
}

export function SelectField({
  value,
  onChange,
  options,
  ...field
}: FieldProps & {
  value: string;
  onChange(value: string): void;
  options: readonly (string | { value: string; label: string })[];
}) {
  return (
    <Labelled {...field}>
      {(id, describedBy, invalid) => (
        <select
          id={id}
          name={field.name}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        >
          {options.map((o) => {
            const option = typeof o === 'string' ? { value: o, label: o } : o;
            return (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            );
          })}
        </select>
      )}
    </Labelled>
  );
}

export function CheckboxField({
  label,
  name,
  checked,
  onChange,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className="ui-field ui-field-checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/**
 * The team that owns what is made (a catalog owner, by name), sent as `team`: one of the person's
 * teams, or none; any name for an admin (or with authentication off).
 */
export function TeamField({
  value,
  onChange,
  label = 'Team',
  name = 'team',
  hint,
}: {
  value: string;
  onChange(value: string): void;
  label?: string;
  name?: string;
  hint?: string;
}) {
  const me = useMe().data;
  const person = me && (me.kind === 'user' || me.kind === 'key') ? me : null;
  if (!person || person.role === 'admin')
    return (
      <TextField
        label={label}
        name={name}
        hint={hint ?? "Optional: a catalog owner's name; its members may change it too"}
        value={value}
        onChange={onChange}
      />
    );
  const teams = value && !person.teams.includes(value) ? [...person.teams, value] : person.teams;
  return (
    <SelectField
      label={label}
      name={name}
      hint={
        hint ??
        (person.teams.length
          ? 'Its members may change it too'
          : 'You are in no team (catalog owner)')
      }
      value={value}
      onChange={onChange}
      options={[{ value: '', label: 'None (only you)' }, ...teams]}
    />
  );
}

/** `"a, b ,c"` -> `['a', 'b', 'c']`: tags and lists typed as text. */
export const splitList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
