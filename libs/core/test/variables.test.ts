import { ConfigError, declareVariables, Var } from '../src/index';

const MiB = 1024 * 1024;
const group = declareVariables({
  SIZE: Var.int({ default: MiB, min: 1, max: 'TOTAL', unit: 'bytes', description: 'One' }),
  TOTAL: Var.int({ default: 32 * MiB, min: 1024, max: 512 * MiB, unit: 'bytes', description: 'All' }), // prettier-ignore
  WAIT_MS: Var.int({ default: 3_600_000, min: 100, unit: 'ms', description: 'Wait' }),
  MODE: Var.oneOf(['fast', 'safe'], { default: 'safe', description: 'How' }),
  ON: Var.bool({ default: false, description: 'Whether' }),
  HOSTS: Var.list({
    lower: true,
    check: (hosts) => (hosts.includes('bad') ? 'has "bad"' : undefined),
    description: 'Which',
  }),
  'FLAG_<NAME>': Var.bool({ documentedDefault: '`true`', description: 'Per name' }),
});

describe('declared variables', () => {
  it('read their defaults and values, typed', () => {
    expect(group.read({})).toEqual({
      SIZE: MiB,
      TOTAL: 32 * MiB,
      WAIT_MS: 3_600_000,
      MODE: 'safe',
      ON: false,
      HOSTS: [],
    });
    const values = group.read({ SIZE: ' 2048 ', MODE: 'fast', ON: 'yes', HOSTS: 'A.example, ,b' });
    expect(values).toMatchObject({ SIZE: 2048, MODE: 'fast', ON: true, HOSTS: ['a.example', 'b'] }); // prettier-ignore
    expect(group.value({ TOTAL: '4096' }, 'TOTAL')).toBe(4096);
  });

  it('stop start-up naming the variable, with bounds that may name another variable', () => {
    expect(() => group.read({ TOTAL: '2048', SIZE: '4096' })).toThrow(
      new ConfigError('SIZE', 'must be an integer from 1 to 2048, got "4096"'),
    );
    expect(() => group.read({ MODE: 'slow' })).toThrow(
      'Invalid configuration: MODE must be one of fast, safe, got "slow"',
    );
    expect(() => group.read({ HOSTS: 'bad' })).toThrow('Invalid configuration: HOSTS has "bad"');
  });

  it('leave families to their config function, under each concrete name', () => {
    expect(Object.keys(group.read({}))).not.toContain('FLAG_<NAME>');
    expect(group.declared['FLAG_<NAME>'].read({ FLAG_X: 'off' }, 'FLAG_X')).toBe(false);
  });

  it('give the README its rows, in the order declared', () => {
    expect(group.variables.map((v) => [v.name, v.default, v.accepts])).toEqual([
      ['SIZE', '`1048576` (1 MiB)', '1 byte to `TOTAL`'],
      ['TOTAL', '`33554432` (32 MiB)', '1 KiB to 512 MiB'],
      ['WAIT_MS', '`3600000` (1 h)', 'at least 100 ms'],
      ['MODE', '`safe`', '`fast` or `safe`'],
      ['ON', '`false`', '`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)'],
      ['HOSTS', 'unset', 'comma-separated'],
      ['FLAG_<NAME>', '`true`', '`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)'],
    ]);
  });
});
