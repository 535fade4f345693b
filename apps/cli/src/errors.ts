import { ConnectionError, PlatformError } from '@platform/client';

/** Exit codes of spec 7.6. */
export const EXIT = {
  SUCCESS: 0,
  ERROR: 1,
  USER_ERROR: 2,
  NOT_INITIALIZED: 3,
  NOT_FOUND: 4,
  CONNECTION: 5,
} as const;

/** An error of the command itself, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.ERROR,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad arguments or input (exit 2). */
export const usageError = (message: string) => new CliError(message, EXIT.USER_ERROR);

/** The exit code for anything a command throws (spec 7.6). */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ConnectionError) return EXIT.CONNECTION;
  if (error instanceof PlatformError) {
    if (error.code === 'NOT_FOUND') return EXIT.NOT_FOUND;
    if (error.code === 'BAD_REQUEST' || error.code === 'VALIDATION') return EXIT.USER_ERROR;
  }
  return EXIT.ERROR;
}

/** What stderr says: the platform's message with its code, or the error's own message. */
export function describe(error: unknown): string {
  if (error instanceof PlatformError) return `${error.message} (${error.code})`;
  if (error instanceof ConnectionError)
    return `${error.message}\nIs the gateway running? Check the URL (platform init, or PLATFORM_URL).`;
  return error instanceof Error ? error.message : String(error);
}
