import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface RunningProcess {
  /** Base URL it listens on, from its "Server listening at" log line. */
  url: string;
  /** Log lines it printed so far. */
  output: string[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a built entry point (`apps/<app>/dist/main.js`) as its own process, on a free port, and
 * resolves once it listens. Rejects with its output when it exits first or does not listen in time.
 */
export function startProcess(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<RunningProcess> {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => output.push(line));
  }
  let listening = false;
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} ${why}:\n${output.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs);
    exited.then((code) => {
      clearTimeout(timer);
      clearInterval(watch);
      if (!listening) fail(`exited with code ${code}`);
    });
    const watch = setInterval(() => {
      const line = output.find((l) => l.includes('Server listening at'));
      const url = line && /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (!url) return;
      listening = true;
      clearInterval(watch);
      clearTimeout(timer);
      resolve({
        url,
        output,
        async stop() {
          child.kill('SIGTERM');
          return exited;
        },
      });
    }, 50);
  });
}
