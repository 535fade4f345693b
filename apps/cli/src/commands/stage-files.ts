import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { invoke, invokeRaw } from '../api.js';
import { usageError } from '../errors.js';
import { bytesOf, pullTargets, pushedFile, readPush, writeAll } from '../files.js';
import { outputOf } from '../generic.js';

const MIB = 1024 * 1024;
const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** A byte count given as a flag: a whole number above 0 (exit 2 otherwise). */
function bytesOption(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw usageError(`${flag} must be a whole number of bytes: ${value}`);
  return n;
}

/** `stage sessions push`, `pull` and `read`: files between a directory and a session. */
export function sessionFileCommands(sessions: Command): void {
  sessions
    .command('push')
    .description(
      'Push a directory (or a file) into a session, each file as its next version (binary files in base64)',
    )
    .argument('<id>')
    .argument('<dir>')
    .option('--prefix <path>', 'Where the files go in the session', '/app')
    .option('--max-file-bytes <n>', "Largest file (the stage's STAGE_MAX_FILE_BYTES)", String(MIB))
    .option('--max-request-bytes <n>', 'Largest request; a bigger push is split', String(32 * MIB))
    .action(async (id: string, dir: string, opts: Record<string, string>, cmd: Command) => {
      const out = outputOf(cmd);
      const { batches, count, skipped } = readPush(dir, opts.prefix, {
        maxFileBytes: bytesOption(opts.maxFileBytes, '--max-file-bytes'),
        maxRequestBytes: bytesOption(opts.maxRequestBytes, '--max-request-bytes'),
      });
      if (!out.options.quiet)
        for (const path of skipped)
          process.stderr.write(`Skipped ${path}: symlinks and special files are not followed\n`);
      const bar = out.progress(count, 'Pushing');
      const written: unknown[] = [];
      for (const body of batches) {
        try {
          const data = await invoke<{ count: number; files: unknown[] }>('stage.pushFiles', {
            path: { id },
            body: { files: body },
          });
          written.push(...data.files);
          bar.increment(data.count);
        } catch (error) {
          bar.stop();
          // Each request is all or nothing: what went before stays, the rest was not sent.
          if (error instanceof Error)
            error.message = `${written.length} of ${files(count)} pushed${batches.length > 1 ? ` (in ${batches.length} requests; push again for the rest)` : ''}: ${error.message}`;
          throw error;
        }
      }
      bar.stop();
      out.data(
        { count: written.length, files: written, skipped },
        undefined,
        () =>
          `Pushed ${files(written.length)} to ${id}${skipped.length ? ` (${skipped.length} symlink${skipped.length === 1 ? '' : 's'} skipped)` : ''}`,
      );
    });
  sessions
    .command('pull')
    .description('Write the files of a session into a directory (every path checked first)')
    .argument('<id>')
    .argument('<dir>')
    .option('--prefix <path>', 'The part of each path left out', '/app')
    .action(async (id: string, dir: string, opts: { prefix: string }, cmd: Command) => {
      const out = outputOf(cmd);
      const pulled = await invoke<Array<{ path: string; content: string; encoding?: string }>>(
        'stage.getAllFiles',
        { path: { id }, query: { content: true } },
      );
      const targets = pullTargets(
        dir,
        opts.prefix,
        pulled.map((file) => file.path),
      );
      // Binary files come in base64: written as their bytes.
      writeAll(targets, pulled.map(bytesOf));
      out.data(pulled, undefined, () => `Pulled ${files(pulled.length)} into ${dir}`);
    });
  sessions
    .command('read')
    .description('Print one file of a session (its content as it is; with --json, bytes in base64)')
    .argument('<id>')
    .argument('<path>', 'The file, e.g. /app/main.tsx')
    .option('--version <n>', 'An older version')
    .option('-o, --output <file>', 'Write it to this file instead of stdout')
    .action(async (id: string, path: string, opts: Record<string, string>, cmd: Command) => {
      const out = outputOf(cmd);
      const version = opts.version === undefined ? undefined : Number(opts.version);
      if (version !== undefined && (!Number.isInteger(version) || version < 1))
        throw usageError(`--version must be a whole number above 0: ${opts.version}`);
      const response = await invokeRaw('stage.readFile', {
        // The wildcard takes the path without its leading slash (its slashes encoded).
        path: { id, path: path.replace(/^\/+/, '') },
        query: version === undefined ? {} : { version },
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      // In JSON as the stage gives files: text, or an image's (a font's...) bytes in base64.
      const file = pushedFile(bytes);
      const data = {
        path,
        version: Number(response.headers.get('x-file-version')),
        ...(typeof file === 'string' ? { content: file } : file),
      };
      if (opts.output) {
        writeFileSync(opts.output, bytes);
        out.data(
          data,
          undefined,
          () => `Wrote ${path} (version ${data.version}) to ${opts.output}`,
        );
      } else if (out.human) process.stdout.write(bytes);
      else out.data(data);
    });
}
