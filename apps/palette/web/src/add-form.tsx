import { Form, TextField, useMutation, useQueryClient } from '@platform/ui';
import { useState } from 'react';

interface AddField {
  name: string;
  label: string;
  kind?: 'text' | 'textarea';
  required?: boolean;
}

/**
 * A small form that appends to a record (an example, a step): the API's message beside its
 * field when it fails; emptied, and the record's pages refreshed, when it succeeds.
 */
export function AddForm({
  label,
  resource,
  fields,
  add,
}: {
  label: string;
  resource: string;
  fields: readonly AddField[];
  add(body: Record<string, string>): Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const empty = Object.fromEntries(fields.map((f) => [f.name, '']));
  const [values, setValues] = useState<Record<string, string>>(empty);
  const mutation = useMutation({
    mutationFn: () => add(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''))),
    onSuccess: async () => {
      setValues(empty);
      await queryClient.invalidateQueries({ queryKey: [resource] });
    },
  });
  return (
    <div className="pl-add">
      <h3>{label}</h3>
      <Form
        label={label}
        onSubmit={() => mutation.mutate()}
        error={mutation.error}
        pending={mutation.isPending}
        submitLabel="Add"
      >
        {fields.map((f) => (
          <TextField
            key={f.name}
            label={f.label}
            name={f.name}
            required={f.required}
            multiline={f.kind === 'textarea'}
            value={values[f.name]}
            onChange={(v) => setValues((current) => ({ ...current, [f.name]: v }))}
          />
        ))}
      </Form>
    </div>
  );
}
