import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxField, Form, SelectField, TeamField, TextField, splitList } from './forms';

/** A field of a create or edit form, as the API names it. */
export interface FieldSpec {
  name: string;
  label: string;
  /**
   * How it is typed: `list` is comma-separated text sent as an array, `json` an object, `team` the
   * team that owns it (one of the person's teams).
   */
  kind?:
    | 'text'
    | 'textarea'
    | 'number'
    | 'select'
    | 'checkbox'
    | 'list'
    | 'json'
    | 'email'
    | 'url'
    | 'team';
  options?: readonly Option[];
  required?: boolean;
  hint?: string;
  /** Sent on create only (not editable afterwards). */
  createOnly?: boolean;
}

type Option = string | { value: string; label: string };
const optionValue = (o: Option | undefined) =>
  o === undefined ? '' : typeof o === 'string' ? o : o.value;

type Values = Record<string, string | boolean>;

function toValues(fields: readonly FieldSpec[], row?: Record<string, unknown>): Values {
  const values: Values = {};
  for (const f of fields) {
    const v = row?.[f.name];
    if (f.kind === 'checkbox') values[f.name] = Boolean(v);
    else if (f.kind === 'list') values[f.name] = Array.isArray(v) ? v.join(', ') : '';
    else if (f.kind === 'json')
      values[f.name] = v === undefined || v === null ? '' : JSON.stringify(v, null, 2);
    else
      values[f.name] =
        v === undefined || v === null
          ? f.kind === 'select'
            ? optionValue(f.options?.[0])
            : ''
          : String(v);
  }
  return values;
}

/** The body the API takes: empty text left out on create, sent as null on edit. */
function toBody(fields: readonly FieldSpec[], values: Values, editing: boolean) {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (editing && f.createOnly) continue;
    const v = values[f.name];
    if (f.kind === 'checkbox') body[f.name] = v;
    else if (v === '') {
      if (editing) body[f.name] = f.kind === 'list' ? [] : null;
    } else if (f.kind === 'list') body[f.name] = splitList(String(v));
    else if (f.kind === 'number') body[f.name] = Number(v);
    else if (f.kind === 'json') {
      try {
        body[f.name] = JSON.parse(String(v));
      } catch (error) {
        throw new Error(`${f.name} is not valid JSON: ${(error as Error).message}`);
      }
    } else body[f.name] = v;
  }
  return body;
}

export function ResourceForm({
  fields,
  initial,
  editing,
  submitLabel,
  save,
  onDone,
}: {
  fields: readonly FieldSpec[];
  initial?: Record<string, unknown>;
  editing: boolean;
  submitLabel: string;
  save(body: Record<string, unknown>): Promise<unknown>;
  onDone(result: unknown): void;
}) {
  const [values, setValues] = useState(() => toValues(fields, initial));
  const mutation = useMutation({
    mutationFn: async () => save(toBody(fields, values, editing)),
    onSuccess: onDone,
  });
  const set = (name: string) => (value: string | boolean) =>
    setValues((v) => ({ ...v, [name]: value }));
  return (
    <Form
      fields={fields.map((f) => f.name)}
      onSubmit={() => mutation.mutate()}
      error={mutation.error}
      pending={mutation.isPending}
      submitLabel={submitLabel}
      onCancel={() => history.back()}
    >
      {fields
        .filter((f) => !(editing && f.createOnly))
        .map((f) =>
          f.kind === 'checkbox' ? (
            <CheckboxField
              key={f.name}
              label={f.label}
              name={f.name}
              checked={Boolean(values[f.name])}
              onChange={set(f.name)}
            />
          ) : f.kind === 'team' ? (
            <TeamField
              key={f.name}
              label={f.label}
              name={f.name}
              hint={f.hint}
              value={String(values[f.name])}
              onChange={set(f.name)}
            />
          ) : f.kind === 'select' ? (
            <SelectField
              key={f.name}
              {...f}
              value={String(values[f.name])}
              onChange={set(f.name)}
              options={f.options ?? []}
            />
          ) : (
            <TextField
              key={f.name}
              label={f.label}
              name={f.name}
              hint={
                f.hint ??
                (f.kind === 'list'
                  ? 'Comma-separated'
                  : f.kind === 'json'
                    ? 'A JSON object'
                    : undefined)
              }
              required={f.required}
              multiline={f.kind === 'textarea' || f.kind === 'json'}
              type={f.kind === 'number' || f.kind === 'email' || f.kind === 'url' ? f.kind : 'text'}
              value={String(values[f.name])}
              onChange={set(f.name)}
            />
          ),
        )}
    </Form>
  );
}
