import type { Command } from 'commander';
import { invoke } from '../api.js';
import { CliError } from '../errors.js';
import { outputOf, serviceCommand, type ServiceSpec } from '../generic.js';

export const gatewaySpec: ServiceSpec = {
  service: 'gateway',
  describe: 'The gateway: health of every service, feature flags',
  resources: {
    features: {
      describe:
        'Feature flags: which services are on (set overrides at runtime, clear removes that)',
      singular: 'feature',
      verbs: {
        list: {
          op: 'listFeatures',
          columns: ['name', 'enabled', 'source', 'default', 'env', 'override'],
        },
        get: 'getFeature',
        set: {
          op: 'setFeature',
          describe: 'Turn a service on or off at runtime (--enabled true|false)',
        },
        clear: { op: 'clearFeature', describe: 'Remove the runtime override of a flag' },
      },
    },
  },
};

interface Health {
  status: string;
  version: string;
  services: Array<{ name: string; status: string; via: string; error?: string }>;
}

export function gatewayCommands(program: Command): void {
  serviceCommand(program, gatewaySpec)
    .command('health')
    .description('Health of every enabled service (exit 1 when one does not answer)')
    .action(async (_opts: object, cmd: Command) => {
      const health = await invoke<Health>('gateway.health');
      const out = outputOf(cmd);
      out.data(health, undefined, () =>
        [
          `${health.status} (version ${health.version})`,
          out.render(health.services, ['name', 'status', 'via', 'error']),
        ].join('\n'),
      );
      if (health.status !== 'ok')
        throw new CliError(
          `Degraded: ${health.services
            .filter((s) => s.status !== 'ok')
            .map((s) => s.name)
            .join(', ')} not healthy`,
        );
    });
}
