/** Log options shared by every process: credentials in headers never reach the log. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      'req.headers["x-api-key"]',
      'req.headers["x-platform-identity"]',
    ],
  };
}
