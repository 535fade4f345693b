import postcss from 'postcss';
import { DEFAULT_TOKENS, defaultTokensCss } from '../src/domain/default-tokens';
import { contrast } from '../src/domain/tokens';

const value = (name: string, mode: 'light' | 'dark') => {
  const token = DEFAULT_TOKENS.find((t) => t.name === name);
  if (!token) throw new Error(`no token ${name}`);
  return mode === 'dark' ? (token.value_dark ?? token.value_default) : token.value_default;
};

// Text on the surfaces the web UIs put it on (libs/ui/src/styles.css).
const PAIRS = [
  ['text', 'bg'],
  ['text', 'surface'],
  ['text', 'surface-raised'],
  ['text-muted', 'bg'],
  ['text-muted', 'surface'],
  ['text-muted', 'surface-raised'],
  ['accent', 'bg'],
  ['accent', 'surface-raised'],
  ['accent', 'accent-soft'],
  ['accent-text', 'accent'],
  ['text', 'accent-soft'],
  ['danger', 'danger-soft'],
  ['danger', 'surface-raised'],
  ['success', 'success-soft'],
  ['warning', 'warning-soft'],
] as const;

describe("the platform's default tokens", () => {
  it.each(['light', 'dark'] as const)('meet WCAG AA for text in %s mode', (mode) => {
    const failing = PAIRS.map(([fg, bg]) => ({
      pair: `${fg} on ${bg}`,
      ...contrast(value(fg, mode), value(bg, mode), value('bg', mode)),
    })).filter((r) => !r.aa.normal);
    expect(failing).toEqual([]);
  });

  it('export as the CSS the web UIs are styled with, light and dark', () => {
    const css = defaultTokensCss();
    const root = postcss.parse(css);
    const rules = root.nodes.filter((n) => n.type === 'rule').map((r) => r.selector);
    expect(rules).toEqual([':root', '[data-theme="dark"]']);
    expect(css).toContain('--text: #111827;');
    expect(css).toMatch(/\[data-theme="dark"\] \{[^}]*--text: #e7eaf0;/);
    expect(css).toContain('prefers-color-scheme: dark');
  });
});
