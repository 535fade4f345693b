import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { deadUrl } from './service.js';
import { sleep } from './waiting.js';

export interface RunningProcess {
  /** Base URL it listens on. */
  url: string;
  /** Lines it printed so far (stdout and stderr). */
  output: string[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** Sends a signal (SIGKILL: the process dies at once); resolves with the exit code. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code (null when a signal ended it) once the process is gone. */
  exited: Promise<number | null>;
  /**
   * CPU time the process has used so far (user and system, all its threads), in microseconds, as
   * Linux's /proc counts it (in clock ticks); undefined where there is no /proc.
   */
  cpuMicros(): number | undefined;
}

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux Node runs on. */
const TICKS_PER_SECOND = 100;

/** utime + stime of /proc/<pid>/stat (fields 14 and 15; the name in field 2 may hold spaces). */
function cpuMicrosOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

export interface ProcessOptions {
  /** Port to listen on; a free one by default (a restarted service may want its old one). */
  port?: number;
  timeoutMs?: number;
}

/**
 * Starts a built entry point (`apps/<app>/dist/main.js`) as its own process on a free loopback
 * port, and resolves once it answers HTTP. Rejects with its output when it exits first or does
 * not answer in time.
 */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  { port, timeoutMs = 30_000 }: ProcessOptions = {},
): Promise<RunningProcess> {
  const url = port === undefined ? await deadUrl() : `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: new URL(url).port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (l) => output.push(l));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const running: RunningProcess = {
    url,
    output,
    exited,
    async stop() {
      return running.kill('SIGTERM');
    },
    async kill(signal) {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
    cpuMicros: () => cpuMicrosOf(child.pid),
  };

  const deadline = Date.now() + timeoutMs;
  while (exitCode === undefined && Date.now() < deadline) {
    try {
      const res = await request(url, { headersTimeout: 1_000 });
      await res.body.dump();
      return running;
    } catch {
      await sleep(100);
    }
  }
  child.kill('SIGKILL');
  const why =
    exitCode === undefined
      ? `did not answer within ${timeoutMs} ms`
      : `exited with code ${exitCode}`;
  throw new Error(`${entry} ${why}:\n${output.join('\n')}`);
}
