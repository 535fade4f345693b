import { ConfigError, envBaseUrls, normaliseBaseUrl } from '../src/index';

describe('normaliseBaseUrl', () => {
  it('keeps https and drops trailing slashes', () => {
    expect(normaliseBaseUrl('https://api.example.com/v1//', 'loopback')).toBe(
      'https://api.example.com/v1',
    );
    expect(normaliseBaseUrl('http://models.internal:8080/', 'any')).toBe(
      'http://models.internal:8080',
    );
  });

  it('takes http on loopback only when told so', () => {
    expect(normaliseBaseUrl('http://127.0.0.1:9000', 'loopback')).toBe('http://127.0.0.1:9000');
    expect(() => normaliseBaseUrl('http://example.com', 'loopback')).toThrow(
      'must be https (http only on localhost)',
    );
  });

  it.each([
    ['api.example.com', 'is not an absolute URL'],
    ['ftp://example.com', 'must be http(s)'],
    ['https://example.com/?key=1', 'must have no query, fragment or credentials'],
    ['https://example.com/#top', 'must have no query, fragment or credentials'],
    ['https://user:secret@example.com', 'must have no query, fragment or credentials'],
  ])('refuses %s', (raw, problem) => {
    expect(() => normaliseBaseUrl(raw, 'any')).toThrow(problem);
  });
});

describe('envBaseUrls', () => {
  it('reads a comma-separated list, normalised, empty entries ignored', () => {
    expect(
      envBaseUrls({ URLS: ' https://a.example/ ,, http://b.example ' }, 'URLS', 'any'),
    ).toEqual(['https://a.example', 'http://b.example']);
    expect(envBaseUrls({}, 'URLS', 'any')).toEqual([]);
  });

  it('stops start-up on a bad entry, naming the variable and the entry', () => {
    const read = () =>
      envBaseUrls({ URLS: 'https://a.example,http://b.example' }, 'URLS', 'loopback');
    expect(read).toThrow(ConfigError);
    expect(read).toThrow('URLS "http://b.example" must be https');
  });
});
