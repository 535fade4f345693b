import type { Command } from 'commander';
import { invoke } from '../api.js';
import { usageError } from '../errors.js';
import { outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import { sessionFileCommands } from './stage-files.js';

const when = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString() : '');

export const stageSpec: ServiceSpec = {
  service: 'stage',
  describe: 'Sandbox sessions (push, pull, render), published apps, workflows',
  resources: {
    sessions: {
      verbs: {
        create: {
          op: 'createSession',
          human: (d) => `Created session ${(d as { id: string }).id}`,
        },
        status: {
          op: 'getStatus',
          human: (data, out) => {
            const s = data as {
              session: Record<string, unknown>;
              render: Record<string, unknown>;
              files: unknown[];
            };
            const render = s.render.entry
              ? `render:   ${String(s.render.entry)} v${String(s.render.version)}${s.render.error ? ` error: ${JSON.stringify(s.render.error)}` : ' ok'}`
              : 'render:   none';
            return [
              `created:  ${when(s.session.createdAt)}`,
              `accessed: ${when(s.session.lastAccessedAt)}`,
              render,
              '',
              out.render(s.files, ['path', 'version', 'size']),
            ].join('\n');
          },
        },
        files: { op: 'getAllFiles', columns: ['path', 'version', 'size'] },
        render: {
          op: 'triggerRender',
          args: ['id', 'entry'],
          human: (d) =>
            `Rendered ${(d as { entry: string }).entry} (version ${(d as { version: number }).version})`,
        },
        'render-state': 'getRenderState',
        snapshots: {
          op: 'getSnapshots',
          columns: ['id', 'label', 'fileCount', 'totalBytes', 'createdAt'],
        },
        snapshot: {
          op: 'createSnapshot',
          describe: 'Take a snapshot of the session',
          human: (d) =>
            `Snapshot ${(d as { id: string }).id}: ${(d as { fileCount: number }).fileCount} files`,
        },
        restore: 'restoreSnapshot',
        history: {
          op: 'getFileHistory',
          columns: ['version', 'size', 'hash', 'deleted', 'createdAt'],
        },
        rm: 'deleteFile',
        app: 'getAppBySession',
        'google-scopes': 'getGoogleScopes',
        'set-google-scopes': 'setGoogleScopes',
      },
    },
    apps: {
      verbs: {
        list: { op: 'listApps', columns: ['sid', 'name', 'sessionId', 'url', 'publishedAt'] },
        get: 'getApp',
        create: { op: 'createApp', args: ['name'] },
        update: 'updateApp',
        delete: 'deleteApp',
        publish: {
          op: 'publishApp',
          human: (d) => `Published ${(d as { sid: string }).sid} at ${(d as { url: string }).url}`,
        },
      },
    },
    workflows: {
      describe: 'Workflows of published apps',
      verbs: {
        run: {
          op: 'runWorkflow',
          describe:
            'Run a workflow of an app (--input JSON, @file or -; --idempotency-key: a repeat answers the first run)',
        },
      },
    },
    runs: {
      describe: 'Workflow runs of an app',
      verbs: {
        list: {
          op: 'listRuns',
          columns: ['id', 'workflow', 'status', 'startedAt', 'finishedAt', 'error'],
        },
        get: 'getRun',
      },
    },
  },
  verbs: { call: { op: 'callFunction', describe: 'Call a stage: backend function (--args JSON)' } },
};

export function stageCommands(program: Command): void {
  const root = serviceCommand(program, stageSpec);
  sessionFileCommands(root.commands.find((c) => c.name() === 'sessions')!);
  const apps = root.commands.find((c) => c.name() === 'apps')!;
  apps
    .command('link')
    .description('Link a published app to a repository (owner/name)')
    .argument('<sid>')
    .argument('<repository>', 'owner/name')
    .option('--provider <provider>', 'Git provider', 'github')
    .option('--url <url>', 'Repository URL (default https://github.com/<owner>/<name>)')
    .option('--visibility <v>', 'public, private or internal', 'private')
    .option('--default-branch <branch>', 'Default branch', 'main')
    .option('--remote-name <name>', 'Remote name', 'origin')
    .action(async (sid: string, full: string, opts: Record<string, string>, cmd: Command) => {
      const [owner, name] = full.split('/');
      if (!owner || !name) throw usageError(`The repository must be owner/name: ${full}`);
      const repository = {
        provider: opts.provider,
        owner,
        name,
        fullName: `${owner}/${name}`,
        url: opts.url ?? `https://github.com/${owner}/${name}`,
        visibility: opts.visibility,
        defaultBranch: opts.defaultBranch,
        remoteName: opts.remoteName,
      };
      const app = await invoke('stage.updateApp', { path: { sid }, body: { repository } });
      outputOf(cmd).data(app, undefined, () => `Linked ${sid} to ${repository.fullName}`);
    });
  apps
    .command('unlink')
    .description('Remove the repository link of an app')
    .argument('<sid>')
    .action(async (sid: string, _opts: object, cmd: Command) => {
      const app = await invoke('stage.updateApp', { path: { sid }, body: { repository: null } });
      outputOf(cmd).data(app, undefined, () => `Unlinked ${sid}`);
    });
}
