import { api, Form, TextField, useMutation, useQueryClient } from '@platform/ui';
import { useState } from 'react';

const STARTERS: Record<string, string> = {
  tsx: 'export function App() {\n  return <h1>Hello</h1>;\n}\n',
  css: 'body {\n  font-family: system-ui, sans-serif;\n}\n',
  json: '{}\n',
  html: '<!doctype html>\n<html lang="en">\n  <head>\n    <title>App</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n',
};

/** Adds a file (an absolute path such as /app/main.tsx); the API's message names a bad path. */
export function NewFile({
  id,
  paths,
  onCreated,
}: {
  id: string;
  paths: readonly string[];
  onCreated(path: string): void;
}) {
  const queryClient = useQueryClient();
  const [path, setPath] = useState('');
  const create = useMutation({
    mutationFn: async () => {
      const target = path.trim();
      if (paths.includes(target)) throw new Error(`path ${target} exists already`);
      const ext = /\.([a-z]+)$/i.exec(target)?.[1] ?? '';
      await api.stage.pushFiles({
        path: { id },
        body: { files: { [target]: STARTERS[ext.toLowerCase()] ?? '' } },
      });
      return target;
    },
    onSuccess: async (target) => {
      setPath('');
      await queryClient.invalidateQueries({ queryKey: ['session', id] });
      onCreated(target);
    },
  });
  return (
    <Form
      label="Add a file"
      submitLabel="Add file"
      onSubmit={() => create.mutate()}
      error={create.error}
      pending={create.isPending}
    >
      <TextField
        label="New file path"
        name="path"
        value={path}
        onChange={setPath}
        placeholder="/app/main.tsx"
      />
    </Form>
  );
}
