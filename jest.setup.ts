import { closeTestDatabases } from '@platform/testing';

// Embedded databases left open would keep the test process alive after the last test.
afterAll(closeTestDatabases);
