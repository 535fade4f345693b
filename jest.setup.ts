export {};
// Embedded databases left open would keep the test process alive after the last test: closed
// after each file that opened any (libs/testing's database module, when loaded, says how).
afterAll(async () => {
  await (globalThis as { __closeTestDatabases?: () => Promise<void> }).__closeTestDatabases?.();
});
