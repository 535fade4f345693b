// The files of a new service, rendered from scripts/service-template/: every `*.tpl` file there,
// at the same path under apps/<name>/ without `.tpl` (`__date__` in a name becomes the date), with
// each `{{placeholder}}` replaced by its value. An unknown placeholder is an error.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATE = fileURLToPath(new URL('../service-template', import.meta.url));

const pascal = (name) => name[0].toUpperCase() + name.slice(1);
const tsString = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const html = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The placeholders' values, from the checked options (`stamps`: the timestamp names). */
export function templateValues({ name, title, description, port, stamps }) {
  return {
    name,
    Name: pascal(name),
    NAME: name.toUpperCase(),
    title,
    titleLiteral: tsString(title),
    titleHtml: html(title),
    description,
    descriptionJson: JSON.stringify(description),
    descriptionHtml: html(description),
    descriptionComment: description.replace(/\*\//g, '* /'),
    port: String(port),
    date: new Date().toISOString().slice(0, 10),
    ...stamps,
  };
}

function templateFiles(dir = TEMPLATE) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return templateFiles(path);
    return entry.endsWith('.tpl') ? [path] : [];
  });
}

function render(text, values, file) {
  return text.replace(/\{\{(\w+)\}\}/g, (token, key) => {
    if (!(key in values)) throw new Error(`${file}: unknown placeholder ${token}`);
    return values[key];
  });
}

/** The files of the new app: path relative to the repository root -> content. */
export function renderApp(values) {
  const files = new Map();
  for (const path of templateFiles()) {
    const target = relative(TEMPLATE, path)
      .replace(/\.tpl$/, '')
      .replace('__date__', values.date);
    files.set(join('apps', values.name, target), render(readFileSync(path, 'utf8'), values, path));
  }
  return files;
}
