import type { Kysely } from '@platform/db';
import { useService } from '@platform/testing';
import * as files from '../src/migrations/2026-12-05-files';
import { png } from './binary-fixtures';
import { stageUnderTest } from './helpers';

// The migration of binary files (2026-12-05-files) on a database that holds files: text contents
// stay as they are through it, down and up again.

const s = useService(stageUnderTest, { scope: 'all' });

const LOGO = png(4, 4);

describe('the binary files migration', () => {
  it('keeps text contents and their history; down takes binary files away, up takes them again', async () => {
    const db = s.svc.db.schema<unknown>('stage') as Kysely<unknown>;
    const id = await s.session();
    await s.push(id, { '/app/a.ts': 'one' });
    await s.push(id, { '/app/a.ts': 'two' });
    await s.api.post(`/sessions/${id}/push`, {
      files: { '/app/logo.png': { content: LOGO.toString('base64'), encoding: 'base64' } },
    });
    await s.api.post(`/sessions/${id}/snapshots`, {});

    await files.down(db);
    expect((await s.api.get(`/sessions/${id}/snapshots`)).body.data).toEqual([
      expect.objectContaining({ fileCount: 1, totalBytes: 3 }),
    ]);
    await files.up(db);
    expect((await s.api.get(`/sessions/${id}/files?content=true`)).body.data).toEqual([
      { path: '/app/a.ts', version: 2, size: 3, content: 'two' },
    ]);
    const old = await s.page(`/api/v1/stage/sessions/${id}/files/app/a.ts?version=1`);
    expect([old.status, old.body]).toEqual([200, 'one']);

    const again = await s.api.post(`/sessions/${id}/push`, {
      files: { '/app/logo.png': { content: LOGO.toString('base64'), encoding: 'base64' } },
    });
    expect(again.body.data.files).toEqual([
      { path: '/app/logo.png', version: 1, size: LOGO.length, binary: true },
    ]);
  });
});
