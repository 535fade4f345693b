import {
  api,
  Card,
  CheckboxField,
  ConfirmButton,
  Details,
  ErrorBanner,
  Form,
  formatDate,
  JsonBlock,
  Link,
  Loading,
  PageHeader,
  QueryList,
  SelectField,
  TextField,
  useMutation,
  useNavigate,
  useParams,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';
import { appPath, ForApp, parseObject, useMayForApp } from './common';

type Template = DataOf<'communication.getTemplate'>;
const templatePath = (appId: string, rest = '') => appPath(appId, `/templates${rest}`);
const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

/** An app's templates, by category: name, version, locales. */
export function TemplatesPage() {
  const appId = useParams().appId!;
  const may = useMayForApp(appId);
  return (
    <ForApp
      appId={appId}
      requires={['communication', 'listTemplates']}
      title="Templates"
      what="see this app's templates"
    >
      <PageHeader
        title="Templates"
        actions={
          may('createTemplate') && (
            <Link className="ui-button ui-button-primary" to={templatePath(appId, '/new')}>
              New template
            </Link>
          )
        }
      >
        Messages of app <Link to={appPath(appId)}>{appId}</Link> written once, sent with data:
        Liquid (<code>{'{{ name }}'}</code>), HTML escaped, one form per locale.
      </PageHeader>
      <QueryList
        queryKey={['templates', appId]}
        list={(query) => api.communication.listTemplates({ path: { appId }, query })}
        filters={[{ name: 'category', label: 'Category' }]}
        rowKey={(t) => t.id}
        href={(t) => templatePath(appId, `/${encodeURIComponent(t.name)}`)}
        empty="No templates yet."
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Category', cell: (t) => t.category },
          { header: 'Version', cell: (t) => t.version, numeric: true },
          { header: 'Locales', cell: (t) => Object.keys(t.locales).join(', ') },
          { header: 'Digest', cell: (t) => (t.digest ? `${t.digest.windowSeconds} s` : '—') },
          { header: 'Updated', cell: (t) => formatDate(t.updatedAt) },
        ]}
      />
    </ForApp>
  );
}

/** One template: its forms, a preview rendered by the server with sample data, edit, delete. */
export function TemplatePage() {
  const { appId, name } = useParams() as { appId: string; name: string };
  const may = useMayForApp(appId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.communication.deleteTemplate({ path: { appId, idOrName: name } }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ['templates', appId, 'get'] });
      await navigate(templatePath(appId));
      await queryClient.invalidateQueries({ queryKey: ['templates', appId] });
    },
  });
  // Not fetched again once it is being deleted (as libs/ui's detail pages): until the page is
  // gone, the list's invalidation would read it again and get a 404.
  const template = useQuery({
    queryKey: ['templates', appId, 'get', name],
    queryFn: () => api.communication.getTemplate({ path: { appId, idOrName: name } }),
    enabled: !(remove.isPending || remove.isSuccess),
  });
  const back = <Link to={templatePath(appId)}>Templates of {appId}</Link>;
  if (template.isPending) return <Loading />;
  if (template.error)
    return (
      <>
        <PageHeader title={`Template ${name}`}>{back}</PageHeader>
        <ErrorBanner error={template.error} />
      </>
    );
  const t = template.data;
  return (
    <>
      <PageHeader
        title={t.name}
        actions={
          <>
            {may('updateTemplate') && (
              <Link
                className="ui-button"
                to={templatePath(appId, `/${encodeURIComponent(t.name)}/edit`)}
              >
                Edit
              </Link>
            )}
            {may('deleteTemplate') && (
              <ConfirmButton
                label="Delete"
                question={`Delete template ${t.name}?`}
                onConfirm={() => remove.mutate()}
                pending={remove.isPending}
              />
            )}
          </>
        }
      >
        {back}
      </PageHeader>
      <ErrorBanner error={remove.error} />
      <Card>
        <Details
          items={[
            ['Category', t.category],
            ['Version', t.version],
            ['Fallback locale', t.fallbackLocale],
            ['Locales', Object.keys(t.locales).join(', ')],
            ['Digest', t.digest ? `every ${t.digest.windowSeconds} s per recipient` : null],
            ['Updated', formatDate(t.updatedAt)],
          ]}
        />
      </Card>
      <Preview appId={appId} template={t} />
      <div className="ui-grid">
        <Card title="Forms">
          <JsonBlock value={t.locales} label="Locales" />
        </Card>
        <Card title="Data schema">
          <JsonBlock value={t.schema} label="Schema" />
        </Card>
      </div>
    </>
  );
}

/** Renders the template on the server (the same engine a send uses) with data typed here. */
function Preview({ appId, template }: { appId: string; template: Template }) {
  const [locale, setLocale] = useState(template.fallbackLocale);
  const [data, setData] = useState(json(template.sampleData));
  const [digest, setDigest] = useState(false);
  const preview = useMutation({
    mutationFn: () =>
      api.communication.previewTemplate({
        path: { appId, idOrName: template.id },
        body: { locale, digest, ...(data.trim() ? { data: parseObject('data', data) } : {}) },
      }),
  });
  const rendered = preview.data;
  return (
    <Card title="Preview">
      <Form
        label="Preview"
        onSubmit={() => preview.mutate()}
        error={preview.error}
        pending={preview.isPending}
        submitLabel="Render"
      >
        <SelectField
          label="Locale"
          name="locale"
          value={locale}
          options={Object.keys(template.locales).map((l) => ({ value: l, label: l }))}
          onChange={setLocale}
        />
        <TextField
          label="Data"
          name="data"
          multiline
          rows={4}
          hint="A JSON object; empty: the template's sample data"
          value={data}
          onChange={setData}
        />
        {template.digest && (
          <CheckboxField
            label="The digest form"
            name="digest"
            checked={digest}
            onChange={setDigest}
          />
        )}
      </Form>
      {rendered && (
        <section aria-label="Rendered">
          <Details
            items={[
              ['Locale', rendered.locale],
              ['Subject', rendered.subject],
            ]}
          />
          <pre className="ui-json comm-message" tabIndex={0} aria-label="Rendered text">
            {rendered.text}
          </pre>
          {rendered.html !== null && (
            // The rendered HTML, as a mail client would show it: no script, no navigation.
            <iframe title="Rendered HTML" sandbox="" srcDoc={rendered.html} className="comm-html" />
          )}
        </section>
      )}
    </Card>
  );
}

/** Creates a template, or edits one (the next version): its forms and schema as JSON. */
export function TemplateFormPage({ editing = false }: { editing?: boolean }) {
  const { appId, name } = useParams() as { appId: string; name?: string };
  return (
    <ForApp
      appId={appId}
      requires={['communication', editing ? 'updateTemplate' : 'createTemplate']}
      title={editing ? `Edit ${name}` : 'New template'}
      what={editing ? "change this app's templates" : 'add templates to this app'}
    >
      {editing ? <EditTemplate appId={appId} name={name!} /> : <TemplateForm appId={appId} />}
    </ForApp>
  );
}

function EditTemplate({ appId, name }: { appId: string; name: string }) {
  const template = useQuery({
    queryKey: ['templates', appId, 'get', name],
    queryFn: () => api.communication.getTemplate({ path: { appId, idOrName: name } }),
  });
  if (template.isPending) return <Loading />;
  if (template.error) return <ErrorBanner error={template.error} />;
  return <TemplateForm appId={appId} template={template.data} />;
}

const EXAMPLE_LOCALES = { en: { subject: 'Welcome {{ name }}', text: 'Hello {{ name }}' } };

function TemplateForm({ appId, template }: { appId: string; template?: Template }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    name: template?.name ?? '',
    category: template?.category ?? '',
    fallbackLocale: template?.fallbackLocale ?? 'en',
    schema: json(template?.schema ?? { type: 'object' }),
    locales: json(template?.locales ?? EXAMPLE_LOCALES),
    sampleData: json(template?.sampleData),
    digest: json(template?.digest),
  });
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: values.name,
        category: values.category,
        fallbackLocale: values.fallbackLocale,
        schema: parseObject('schema', values.schema) ?? {},
        locales: (parseObject('locales', values.locales) ?? {}) as Template['locales'],
        ...(values.sampleData.trim() ? { sampleData: parseObject('sampleData', values.sampleData) } : {}), // prettier-ignore
        ...(values.digest.trim() ? { digest: parseObject('digest', values.digest) as Template['digest'] } : {}), // prettier-ignore
      };
      return template
        ? api.communication.updateTemplate({ path: { appId, idOrName: template.id }, body })
        : api.communication.createTemplate({ path: { appId }, body });
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['templates', appId] });
      await navigate(templatePath(appId, `/${encodeURIComponent(saved.name)}`));
    },
  });
  return (
    <>
      <PageHeader title={template ? `Edit ${template.name}` : 'New template'}>
        <Link to={templatePath(appId)}>Templates of {appId}</Link>
        {template && ` · saving makes version ${template.version + 1}`}
      </PageHeader>
      <Form
        label={template ? 'Edit template' : 'New template'}
        onSubmit={() => save.mutate()}
        error={save.error}
        pending={save.isPending}
        submitLabel={template ? 'Save' : 'Create'}
        onCancel={() => history.back()}
      >
        <TextField label="Name" name="name" required value={values.name} onChange={set('name')} />
        <TextField
          label="Category"
          name="category"
          required
          hint="What recipients opt out of, e.g. builds; security cannot be turned off"
          value={values.category}
          onChange={set('category')}
        />
        <TextField
          label="Fallback locale"
          name="fallbackLocale"
          required
          value={values.fallbackLocale}
          onChange={set('fallbackLocale')}
        />
        <TextField
          label="Locales"
          name="locales"
          required
          multiline
          rows={6}
          hint="JSON: { <locale>: { subject, text, html, slack } }"
          value={values.locales}
          onChange={set('locales')}
        />
        <TextField
          label="Data schema"
          name="schema"
          required
          multiline
          rows={4}
          hint="A JSON Schema of the data sends give"
          value={values.schema}
          onChange={set('schema')}
        />
        <TextField
          label="Sample data"
          name="sampleData"
          multiline
          rows={3}
          hint="JSON: what the preview renders by default"
          value={values.sampleData}
          onChange={set('sampleData')}
        />
        <TextField
          label="Digest"
          name="digest"
          multiline
          rows={3}
          hint="JSON: { windowSeconds, locales } to collect sends per recipient; empty: none"
          value={values.digest}
          onChange={set('digest')}
        />
      </Form>
    </>
  );
}
