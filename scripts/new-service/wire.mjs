// The edits new-service makes to the repository's shared files, each a pure function from the
// file's text to its new text (unchanged when the service is wired in already). `wireIn` runs
// them all in memory; a file that does not look as expected is an EditError and nothing is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export class EditError extends Error {}

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
        '    env_file:',
        `      - path: env/${name}.env`,
        '        required: false',
        '    environment:',
        '      <<: [*auth, *ops]',
        '      PLATFORM_URL: http://gateway:3000',
        `      PORT: '${port}'`,
        `      OTEL_SERVICE_NAME: ${name}`,
        '    expose:',
        `      - '${port}'`,
        '    healthcheck:',
        '      <<: *health',
        '      test:',
        '        - CMD',
        '        - node',
        '        - -e',
        `        - "fetch('http://127.0.0.1:${port}/api/v1/${name}/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"`,
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
  // The gateway's fallback copy reads the service's own variables too.
  const envFile = childLine(lines, gateway, 'env_file');
  const listed = (end) =>
    lines.slice(envFile, end).some((line) => line.trim() === `- path: env/${name}.env`);
  if (envFile >= 0 && !listed(blockEnd(lines, envFile)))
    lines.splice(
      blockEnd(lines, envFile),
      0,
      `      - path: env/${name}.env`,
      '        required: false',
    );
  const dependsOn = childLine(lines, gateway, 'depends_on');
  if (dependsOn < 0) throw new EditError('docker-compose.yml: the gateway has no depends_on');
  if (childLine(lines, dependsOn, name) < 0)
    lines.splice(
      blockEnd(lines, dependsOn),
      0,
      `      ${name}:`,
      '        condition: service_healthy',
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

async function checkYaml(text) {
  let yaml;
  try {
    yaml = await import('yaml');
  } catch {
    return; // not installed yet: nothing to check with
  }
  yaml.parse(text);
}

/**
 * The new content of every shared file the service changes, by path relative to `root`: the
 * gateway (services.ts, package.json, tsconfig.json), the root tsconfigs, docker-compose.yml and
 * the README. Throws an EditError when one of them cannot be edited (or would not parse).
 */
export async function wireIn(root, { name, title, port }) {
  const edits = new Map();
  const edit = (path, change) => {
    const before = readFileSync(join(root, path), 'utf8');
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
    if (error instanceof SyntaxError || error.name === 'YAMLParseError')
      throw new EditError(error.message);
    throw error;
  }
  return edits;
}
