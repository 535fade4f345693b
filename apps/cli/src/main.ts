#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { billingCommands } from './commands/billing.js';
import { catalogCommands } from './commands/catalog.js';
import { gatewayCommands } from './commands/gateway.js';
import { inferenceCommands } from './commands/inference.js';
import { ledgerCommands } from './commands/ledger.js';
import { paletteCommands } from './commands/palette.js';
import { pulseCommands } from './commands/pulse.js';
import { communicationSpec, gitSpec, passportSpec } from './commands/services.js';
import { stageCommands } from './commands/stage.js';
import { completionCommand } from './completion.js';
import { describe, EXIT, exitCodeOf } from './errors.js';
import { serviceCommand } from './generic.js';
import { initCommand } from './init.js';

/** The whole command tree (completion reads it too). */
export function buildProgram(): Command {
  const program = new Command('platform')
    .description('The platform from the terminal: every service, imports, completion')
    .option('--json', 'Print the data exactly as the API returns it, nothing else')
    .option('-q, --quiet', 'Print nothing; the exit code says how it went')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  initCommand(program);
  pulseCommands(program);
  ledgerCommands(program);
  catalogCommands(program);
  paletteCommands(program);
  billingCommands(program);
  serviceCommand(program, passportSpec);
  serviceCommand(program, communicationSpec);
  stageCommands(program);
  inferenceCommands(program);
  serviceCommand(program, gitSpec);
  gatewayCommands(program);
  completionCommand(program);
  return program;
}

/** Runs the command; resolves with the exit code of spec 7.6. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.SUCCESS;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for (--help, `platform help [command]`) is success, as commander says with
      // exitCode 0; any other parser complaint is a usage error (it said why).
      if (error.exitCode === 0) return EXIT.SUCCESS;
      return EXIT.USER_ERROR;
    }
    process.stderr.write(`Error: ${describe(error)}\n`);
    if (process.env.PLATFORM_DEBUG && error instanceof Error)
      process.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error);
  }
}

if (require.main === module) {
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
