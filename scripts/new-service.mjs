#!/usr/bin/env node
// A new service in one command:
//   npm run new-service -- <name> --title "<Title>" [--port N] [--timestamps createdAt|created]
//                          [--description "<one line>"] [--dry-run]
// Creates apps/<name>/ from scripts/service-template/ (one CRUD resource, `items`), wires it into
// the gateway, the tsconfigs, docker-compose.yml and the README, formats what it touched, runs
// `npm install`, builds the gateway, regenerates the README's configuration table
// (scripts/readme-config.mjs) and, when the root package.json has it, `npm run client:generate`.
// Everything is checked and prepared in memory first: a bad input writes nothing (exit code 2).
// The rendering is in new-service/render.mjs, the edits of the shared files in new-service/wire.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderApp, templateValues } from './new-service/render.mjs';
import { EditError, wireIn } from './new-service/wire.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
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

// ---------------------------------------------------------------- running

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

  const created = renderApp(templateValues({ name, title, description, port, stamps }));
  let edits;
  try {
    edits = await wireIn(ROOT, { name, title, port });
  } catch (error) {
    if (error instanceof EditError)
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
  // The README's configuration table (the service's variables as declared in its src/config.ts)
  // and the client are generated from the built gateway.
  steps.push(
    ['npx', '--no-install', 'tsc', '-b', 'apps/gateway'],
    ['node', 'scripts/readme-config.mjs'],
  );
  const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (rootPackage.scripts?.['client:generate']) steps.push(['npm', 'run', 'client:generate']);
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
    [`npm test -- apps/${name}/`, 'its tests (Jest, on PGlite)'],
    [`npx nx test @platform/${name}`, 'the same through Nx (builds what it needs first)'],
    [`npm run start -w apps/${name}`, `standalone: http://localhost:${port}/api/v1/${name}/items`],
    ['npm start', `the platform: http://localhost:3000/api/v1/${name}/items`],
  ];
  console.log(`
Done: ${title} is apps/${name}, mounted by the gateway at /api/v1/${name}.

Next:
${next.map(([command, what]) => `  ${command.padEnd(38)}  ${what}`).join('\n')}

Then replace \`items\` with the service's own resources (src/schemas, src/repositories, src/routes,
a new migration in src/migrations, test/), describe them in apps/${name}/README.md, and declare its
variables in src/config.ts (the root README's table follows: \`node scripts/readme-config.mjs\`).`);
}

main().catch((error) => {
  if (error instanceof InputError) {
    console.error(`new-service: ${error.message}\nNothing was written. See --help.`);
    process.exit(2);
  }
  console.error(`new-service: ${error.message}`);
  process.exit(1);
});
