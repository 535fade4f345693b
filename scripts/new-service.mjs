#!/usr/bin/env node
// A new service in one command:
//   npm run new-service -- <name> --title "<Title>" [--port N] [--timestamps createdAt|created]
//                          [--description "<one line>"] [--dry-run]
// Creates apps/<name>/ from scripts/service-template/ (one CRUD resource, `items`), wires it into
// the gateway, the tsconfigs, docker-compose.yml and the README, formats what it touched, runs
// `npm install` and, when the root package.json has it, `npm run client:generate`.
// Everything is checked and prepared in memory first: a bad input writes nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEMPLATE = join(ROOT, 'scripts', 'service-template');
const GATEWAY_PORT = 3000;
const FIRST_PORT = 3101;

// Names a service cannot take: the gateway's own paths and packages, the libs, the compose
// services, and identifiers the generated code (or Node) already uses.
const RESERVED = new Set([
  ...['gateway', 'api', 'docs', 'health', 'healthz', 'features', 'openapi', 'public', 'static'],
  ...['assets', 'web', 'cli', 'platform', 'postgres', 'postgresql', 'pg', 'node', 'npm', 'nx'],
  ...['core', 'db', 'client', 'testing', 'jobs', 'ui', 'libs', 'apps', 'scripts', 'bench'],
  ...['information', 'schema', 'migrations', 'join'],
  ...['console', 'process', 'require', 'module', 'exports', 'global', 'globalthis', 'buffer'],
  ...['undefined', 'nan', 'infinity', 'arguments', 'eval', 'error', 'type', 'as'],
  ...['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete'],
  ...['do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if'],
  ...['import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw'],
  ...['true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'await', 'async'],
  ...['implements', 'interface', 'package', 'private', 'protected'],
]);

const USAGE = `Usage: npm run new-service -- <name> --title "<Title>" [options]

  <name>                  2 to 20 lowercase letters: the path prefix /api/v1/<name>, the
                          Postgres schema, the package @platform/<name> and apps/<name>/
  --title "<Title>"       human title, shown in the dashboard and the API reference
  --port N                port of the standalone server (default: the next after the highest
                          defaultPort of apps/*/src/index.ts)
  --timestamps createdAt  record timestamps named createdAt/updatedAt (default), or
  --timestamps created    created/updated (spec 2.1.4 spells them both ways, per service)
  --description "<text>"  one line for package.json and the READMEs (default: "<Title> service")
  --dry-run               check and print what would be done, write nothing`;

class InputError extends Error {}

const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const pascal = (name) => name[0].toUpperCase() + name.slice(1);
const tsString = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const html = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        title: { type: 'string' },
        port: { type: 'string' },
        timestamps: { type: 'string', default: 'createdAt' },
        description: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new InputError(error.message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1)
    throw new InputError(
      positionals.length === 0
        ? 'Give the service a name, e.g. npm run new-service -- widgets --title "Widgets"'
        : `One name only, got: ${positionals.join(' ')}`,
    );
  return { ...values, name: positionals[0], dryRun: values['dry-run'] };
}

/** defaultPort of every app, from its src/index.ts. */
function servicePorts() {
  const ports = new Map();
  for (const app of readdirSync(join(ROOT, 'apps'))) {
    const index = join(ROOT, 'apps', app, 'src', 'index.ts');
    if (!existsSync(index)) continue;
    const match = /\bdefaultPort:\s*(\d+)/.exec(readFileSync(index, 'utf8'));
    if (match) ports.set(Number(match[1]), app);
  }
  return ports;
}

function checkName(name) {
  if (!/^[a-z]{2,20}$/.test(name))
    throw new InputError(
      `Invalid name "${name}": use 2 to 20 lowercase letters (a-z), e.g. widgets`,
    );
  if (RESERVED.has(name)) throw new InputError(`The name "${name}" is reserved; choose another`);
  for (const dir of ['apps', 'libs'])
    if (existsSync(join(ROOT, dir, name)))
      throw new InputError(`${dir}/${name} exists already; choose another name`);
}

function checkTitle(title) {
  if (title === undefined) throw new InputError('--title "<Title>" is required');
  const trimmed = title.trim();
  if (!trimmed || trimmed.length > 60)
    throw new InputError('--title must be 1 to 60 characters, e.g. --title "Widgets"');
  if (/[|`\\<>"\p{Cc}]/u.test(trimmed))
    throw new InputError('--title must not contain | ` \\ < > " or control characters');
  return trimmed;
}

function checkDescription(description, title) {
  const text = (description ?? `${title} service`).trim().replace(/\.$/, '');
  if (!text || text.length > 200)
    throw new InputError('--description must be 1 to 200 characters on one line');
  if (/[|`\\<>\p{Cc}]/u.test(text))
    throw new InputError('--description must not contain | ` \\ < > or control characters');
  return text;
}

function choosePort(option, ports) {
  if (option === undefined) {
    let port = Math.max(FIRST_PORT - 1, ...ports.keys()) + 1;
    while (ports.has(port) || port === GATEWAY_PORT) port += 1;
    return port;
  }
  if (!/^\d+$/.test(option) || Number(option) < 1024 || Number(option) > 65535)
    throw new InputError(`Invalid --port ${option}: use a number from 1024 to 65535`);
  const port = Number(option);
  if (port === GATEWAY_PORT) throw new InputError(`Port ${port} is the gateway's`);
  if (ports.has(port)) throw new InputError(`Port ${port} is taken by apps/${ports.get(port)}`);
  return port;
}

function checkTimestamps(option) {
  if (option === 'createdAt' || option === 'createdAt/updatedAt')
    return { created: 'createdAt', updated: 'updatedAt', Stamps: 'StampsAt', stamps: 'stampsAt' };
  if (option === 'created' || option === 'created/updated')
    return { created: 'created', updated: 'updated', Stamps: 'Stamps', stamps: 'stamps' };
  throw new InputError(`Invalid --timestamps ${option}: use createdAt or created`);
}

// ---------------------------------------------------------------- templates

function templateFiles(dir = TEMPLATE) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return templateFiles(path);
    return entry.endsWith('.tpl') ? [path] : [];
  });
}

function render(text, values, file) {
  const out = text.replace(/\{\{(\w+)\}\}/g, (token, key) => {
    if (!(key in values)) throw new Error(`${file}: unknown placeholder ${token}`);
    return values[key];
  });
  return out;
}

/** The files of the new app: path relative to the repository root -> content. */
function renderApp(values) {
  const files = new Map();
  for (const path of templateFiles()) {
    const target = relative(TEMPLATE, path)
      .replace(/\.tpl$/, '')
      .replace('__date__', values.date);
    files.set(join('apps', values.name, target), render(readFileSync(path, 'utf8'), values, path));
  }
  return files;
}

// ---------------------------------------------------------------- edits of shared files

class EditError extends Error {}

/** apps/gateway/src/services.ts: the import and the SERVICES entry. */
function editServices(text, name) {
  let out = text;
  const importLine = `import { ${name} } from '@platform/${name}';`;
  if (!out.includes(`from '@platform/${name}';`)) {
    const lines = out.split('\n');
    const imports = lines
      .map((line, index) => ({
        index,
        match: /^import .* from '@platform\/([a-z-]+)';$/.exec(line),
      }))
      .filter(({ match }) => match && !['core', 'db', 'client', 'testing'].includes(match[1]));
    const after = imports.filter(({ match }) => match[1] < name).at(-1);
    const before = imports.find(({ match }) => match[1] > name);
    let at;
    if (after) at = after.index + 1;
    else if (before) at = before.index;
    else at = lines.findLastIndex((line) => line.startsWith('import ')) + 1;
    if (at <= 0) throw new EditError('apps/gateway/src/services.ts: no import lines found');
    lines.splice(at, 0, importLine);
    out = lines.join('\n');
  }
  const list = /(export const SERVICES\b[^=]*=\s*\[)([^\]]*)(\])/.exec(out);
  if (!list)
    throw new EditError('apps/gateway/src/services.ts: no `export const SERVICES = [...]` found');
  const entries = list[2]
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!entries.includes(name)) {
    const updated = `${list[1]}${[...entries, name].join(', ')}${list[3]}`;
    out = out.slice(0, list.index) + updated + out.slice(list.index + list[0].length);
  }
  return out;
}

/** apps/gateway/package.json: the dependency, after the other @platform ones. */
function editGatewayPackage(text, name) {
  const pkg = JSON.parse(text);
  const deps = pkg.dependencies ?? {};
  const key = `@platform/${name}`;
  if (key in deps) return text;
  const entries = Object.entries(deps);
  const lastPlatform = entries.findLastIndex(([dep]) => dep.startsWith('@platform/'));
  entries.splice(lastPlatform + 1, 0, [key, '*']);
  pkg.dependencies = Object.fromEntries(entries);
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * Adds `{ "path": path }` to the `references` of a tsconfig, before the entry `before` when there
 * is one (the gateway comes after the services), else last.
 */
function editReferences(text, file, path, before) {
  const block = /("references"\s*:\s*\[)([^\]]*)(\])/.exec(text);
  if (!block) throw new EditError(`${file}: no "references" array found`);
  const items = block[2].match(/\{[^{}]*\}/g) ?? [];
  const paths = items.map((item) => /"path"\s*:\s*"([^"]*)"/.exec(item)?.[1]);
  if (paths.includes(path)) return text;
  const at = before && paths.includes(before) ? paths.indexOf(before) : items.length;
  items.splice(at, 0, `{ "path": "${path}" }`);
  const indent = /\n([ \t]*)"references"/.exec(text)?.[1] ?? '  ';
  const inner = `${indent}  `;
  const rebuilt = `${block[1]}\n${inner}${items.join(`,\n${inner}`)}\n${indent}${block[3]}`;
  return text.slice(0, block.index) + rebuilt + text.slice(block.index + block[0].length);
}

/** tsconfig.test.json: the `@platform/<name>` path, before the gateway's. */
function editTestPaths(text, name) {
  const block = /("paths"\s*:\s*\{)([^{}]*)(\})/.exec(text);
  if (!block) throw new EditError('tsconfig.test.json: no "paths" object found');
  const entries = [...block[2].matchAll(/"([^"]+)"\s*:\s*(\[[^\]]*\])/g)].map((m) => [m[1], m[2]]);
  const key = `@platform/${name}`;
  if (entries.some(([k]) => k === key)) return text;
  const gateway = entries.findIndex(([k]) => k === '@platform/gateway');
  entries.splice(gateway >= 0 ? gateway : entries.length, 0, [
    key,
    `["./apps/${name}/src/index.ts"]`,
  ]);
  const indent = /\n([ \t]*)"paths"/.exec(text)?.[1] ?? '    ';
  const inner = `${indent}  `;
  const body = entries.map(([k, v]) => `${inner}"${k}": ${v}`).join(',\n');
  const rebuilt = `${block[1]}\n${body}\n${indent}${block[3]}`;
  return text.slice(0, block.index) + rebuilt + text.slice(block.index + block[0].length);
}

const indentOf = (line) => /^ */.exec(line)[0].length;

/** The index just past the children of `lines[start]` (lines indented deeper, or blank). */
function blockEnd(lines, start) {
  const own = indentOf(lines[start]);
  let end = start + 1;
  let last = start + 1;
  while (end < lines.length && (lines[end].trim() === '' || indentOf(lines[end]) > own)) {
    end += 1;
    if (lines[end - 1].trim() !== '') last = end;
  }
  return last;
}

/** The line `key:` among the children of `lines[parent]`, or -1. */
function childLine(lines, parent, key) {
  const end = blockEnd(lines, parent);
  const depth = indentOf(lines[parent]) + 2;
  for (let i = parent + 1; i < end; i += 1)
    if (indentOf(lines[i]) === depth && lines[i].trim().startsWith(`${key}:`)) return i;
  return -1;
}

/** docker-compose.yml: the service's container, and the gateway's proxy URL and depends_on. */
function editCompose(text, name, port) {
  const lines = text.split('\n');
  const services = lines.findIndex((line) => /^services:\s*$/.test(line));
  if (services < 0) throw new EditError('docker-compose.yml: no `services:` found');
  const proxyKey = `${name.toUpperCase()}_PROXY_URL`;

  if (childLine(lines, services, name) < 0) {
    const gateway = childLine(lines, services, 'gateway');
    const at = gateway >= 0 ? gateway : blockEnd(lines, services) + 1;
    lines.splice(
      at,
      0,
      ...[
        `  ${name}:`,
        '    build:',
        '      context: .',
        `      dockerfile: apps/${name}/Dockerfile`,
        '    environment:',
        `      PORT: '${port}'`,
        '      DATABASE_URL: postgres://platform:platform@postgres:5432/platform',
        '      LOG_LEVEL: info',
        '    expose:',
        `      - '${port}'`,
        '    depends_on:',
        '      postgres:',
        '        condition: service_healthy',
        '',
      ],
    );
  }

  const gateway = childLine(lines, services, 'gateway');
  if (gateway < 0) throw new EditError('docker-compose.yml: no `gateway` service found');
  const environment = childLine(lines, gateway, 'environment');
  if (environment < 0) throw new EditError('docker-compose.yml: the gateway has no environment');
  if (childLine(lines, environment, proxyKey) < 0)
    lines.splice(blockEnd(lines, environment), 0, `      ${proxyKey}: http://${name}:${port}`);
  const dependsOn = childLine(lines, gateway, 'depends_on');
  if (dependsOn < 0) throw new EditError('docker-compose.yml: the gateway has no depends_on');
  if (childLine(lines, dependsOn, name) < 0)
    lines.splice(
      blockEnd(lines, dependsOn),
      0,
      `      ${name}:`,
      '        condition: service_started',
    );
  return lines.join('\n');
}

/** README.md: a row in the services table and a line in "Running a service on its own". */
function editReadme(text, name, title, port) {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => /^\|\s*Service\s*\|\s*Prefix\s*\|/.test(line));
  if (header < 0) throw new EditError('README.md: no services table (| Service | Prefix | ...)');
  let end = header + 1;
  while (end < lines.length && lines[end].startsWith('|')) end += 1;
  const rows = lines.slice(header, end);
  if (!rows.some((row) => row.includes(`\`/api/v1/${name}\``)))
    lines.splice(
      end,
      0,
      `| ${title} | \`/api/v1/${name}\` | [apps/${name}](apps/${name}/README.md) |`,
    );

  const section = lines.findIndex((line) => /^##+ Running a service on its own/.test(line));
  if (section < 0) throw new EditError('README.md: no "Running a service on its own" section');
  let next = lines.findIndex((line, i) => i > section && /^##? /.test(line));
  if (next < 0) next = lines.length;
  const starts = [];
  for (let i = section; i < next; i += 1)
    if (lines[i].startsWith('npm run start -w apps/')) starts.push(i);
  if (starts.length === 0)
    throw new EditError('README.md: no `npm run start -w apps/...` line under "Running a service"');
  const command = `npm run start -w apps/${name}`;
  if (!starts.some((i) => lines[i] === command || lines[i].startsWith(`${command} `))) {
    const anchor = lines[starts.at(-1)];
    const column = anchor.indexOf('#');
    const comment = `# http://localhost:${port}/api/v1/${name}/...`;
    const padding = Math.max(2, column - command.length);
    lines.splice(starts.at(-1) + 1, 0, `${command}${' '.repeat(padding)}${comment}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- running

async function checkYaml(text) {
  let yaml;
  try {
    yaml = await import('yaml');
  } catch {
    return; // not installed yet: nothing to check with
  }
  yaml.parse(text);
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const { name } = options;
  checkName(name);
  const title = checkTitle(options.title);
  const description = checkDescription(options.description, title);
  const port = choosePort(options.port, servicePorts());
  const stamps = checkTimestamps(options.timestamps);
  const values = {
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

  const created = renderApp(values);
  const edits = new Map();
  const edit = (path, change) => {
    const before = read(path);
    const after = change(before);
    if (after !== before) edits.set(path, after);
  };
  try {
    edit('apps/gateway/src/services.ts', (t) => editServices(t, name));
    edit('apps/gateway/package.json', (t) => editGatewayPackage(t, name));
    edit('apps/gateway/tsconfig.json', (t) =>
      editReferences(t, 'apps/gateway/tsconfig.json', `../${name}`),
    );
    edit('tsconfig.json', (t) =>
      editReferences(t, 'tsconfig.json', `apps/${name}`, 'apps/gateway'),
    );
    edit('tsconfig.test.json', (t) => editTestPaths(t, name));
    edit('docker-compose.yml', (t) => editCompose(t, name, port));
    edit('README.md', (t) => editReadme(t, name, title, port));
    if (edits.has('docker-compose.yml')) await checkYaml(edits.get('docker-compose.yml'));
  } catch (error) {
    if (
      error instanceof EditError ||
      error instanceof SyntaxError ||
      error.name === 'YAMLParseError'
    )
      throw new InputError(`Cannot wire the service in: ${error.message}`);
    throw error;
  }

  const summary = `apps/${name} (${title}) on port ${port}, at /api/v1/${name}`;
  if (options.dryRun) {
    console.log(`Dry run: would create ${summary}:`);
    for (const path of created.keys()) console.log(`  + ${path}`);
    for (const path of edits.keys()) console.log(`  ~ ${path}`);
    return;
  }

  if (!existsSync(join(ROOT, 'node_modules', '.bin', 'prettier')))
    throw new InputError('The dependencies are not installed: run `npm ci` first');
  for (const [path, content] of created) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), content);
  }
  for (const [path, content] of edits) writeFileSync(join(ROOT, path), content);
  console.log(`Created ${summary}:`);
  for (const path of created.keys()) console.log(`  + ${path}`);
  console.log('Wired it in:');
  for (const path of edits.keys()) console.log(`  ~ ${path}`);
  if (edits.size === 0) console.log('  (nothing to change: it was wired in already)');

  const prettier = [
    '--no-install',
    'prettier',
    '--write',
    '--ignore-unknown',
    '--log-level',
    'warn',
  ];
  const steps = [
    ['npx', ...prettier, `apps/${name}`, ...edits.keys()],
    ['npm', 'install', '--no-audit', '--no-fund'],
  ];
  if (JSON.parse(read('package.json')).scripts?.['client:generate'])
    // The client generator reads the merged OpenAPI document from the built gateway.
    steps.push(
      ['npx', '--no-install', 'tsc', '-b', 'apps/gateway'],
      ['npm', 'run', 'client:generate'],
    );
  for (const [index, [command, ...args]] of steps.entries()) {
    console.log(`\n$ ${command} ${args.join(' ')}`);
    if (spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status === 0) continue;
    const rest = steps.slice(index).map((step) => step.join(' '));
    throw new Error(
      `\`${command} ${args.join(' ')}\` failed. The files are written; finish with:\n  ${rest.join(' &&\n  ')}`,
    );
  }

  const next = [
    ['npx tsc -b apps/gateway', 'build it, and the gateway that mounts it'],
    [`npm test -w apps/${name}`, 'its tests (Jest, on PGlite)'],
    [`npm run start -w apps/${name}`, `standalone: http://localhost:${port}/api/v1/${name}/items`],
    ['npm start', `the platform: http://localhost:3000/api/v1/${name}/items`],
  ];
  console.log(`
Done: ${title} is apps/${name}, mounted by the gateway at /api/v1/${name}.

Next:
${next.map(([command, what]) => `  ${command.padEnd(38)}  ${what}`).join('\n')}

Then replace \`items\` with the service's own resources (src/schemas, src/repositories, src/routes,
a new migration in src/migrations, test/), describe them in apps/${name}/README.md, and declare its
variables, if it reads any, in defineService and the root README.`);
}

main().catch((error) => {
  if (error instanceof InputError) {
    console.error(`new-service: ${error.message}\nNothing was written. See --help.`);
    process.exit(2);
  }
  console.error(`new-service: ${error.message}`);
  process.exit(1);
});
