import { Writable } from 'node:stream';
import { createApp, loggerOptions } from '../src';
import { loggableUrl } from '../src/logging';

describe('request logs', () => {
  it('keep credentials in URLs out: a hand-off token, an OAuth code and state', async () => {
    expect(loggableUrl('/__platform/signin?token=abc.def&x=1')).toBe('/__platform/signin?token=[Redacted]&x=1'); // prettier-ignore
    expect(loggableUrl('/cb?state=s1&code=c2#h')).toBe('/cb?state=[Redacted]&code=[Redacted]#h');
    expect(loggableUrl('/a?tokens=1&mytoken=2')).toBe('/a?tokens=1&mytoken=2');

    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }); // prettier-ignore
    const app = createApp({ logger: { ...loggerOptions('info'), stream } });
    app.get('/x', async () => 'ok');
    await app.inject({ url: '/x?token=the-secret-token&y=2' });
    await app.close();
    const logged = lines.join('');
    expect(logged).toContain('/x?token=[Redacted]&y=2');
    expect(logged).not.toContain('the-secret-token');
  });
});
