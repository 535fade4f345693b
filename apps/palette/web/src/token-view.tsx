import { api, useQuery, type DataOf } from '@platform/ui';
import type { CSSProperties, ReactNode } from 'react';

export type Token = DataOf<'palette.listTokens'>[number];
export type Category = Token['category'];
export type Mode = 'light' | 'dark';

export const CATEGORIES: readonly Category[] = [
  'color',
  'spacing',
  'typography',
  'radius',
  'shadow',
  'opacity',
  'z-index',
  'motion',
  'easing',
  'breakpoint',
  'border',
  'font-family',
  'font-weight',
  'line-height',
  'letter-spacing',
  'dimension',
  'number',
  'stroke-style',
  'border-composite',
  'transition',
  'gradient',
  'text-style',
];

/** Every token (the API's largest page), shared by the gallery, the checker and previews. */
export function useAllTokens() {
  return useQuery({
    queryKey: ['tokens', 'all'],
    queryFn: () => api.palette.listTokens({ query: { limit: 1000 } }),
  });
}

/**
 * A token's value in a mode, as a page can use it: the dark value (or the default) in dark
 * mode, aliases followed through `byId` as the API follows them.
 */
export function valueIn(
  token: Token,
  mode: Mode,
  byId: ReadonlyMap<string, Token>,
  seen = new Set<string>(),
): string {
  const dark = mode === 'dark' && token.value.dark !== null;
  const raw = dark ? token.value.dark! : token.value.default;
  const alias = dark ? token.aliases.dark : token.aliases.default;
  const target = alias && byId.get(alias.id);
  if (!target || seen.has(target.id)) return raw;
  seen.add(token.id);
  return valueIn(target, mode, byId, seen);
}

let lightStyle: CSSProperties | null = null;

/**
 * The platform's light token values (the stylesheet's `:root` block) as inline custom
 * properties: a light panel shows light even on a dark page, as `data-theme="dark"` shows dark.
 */
function lightTokens(): CSSProperties {
  if (lightStyle) return lightStyle;
  const style: Record<string, string> = {};
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue;
    }
    for (const rule of Array.from(rules)) {
      if (!(rule instanceof CSSStyleRule) || rule.selectorText !== ':root') continue;
      if (!rule.style.getPropertyValue('--bg')) continue;
      for (const name of Array.from(rule.style))
        if (name.startsWith('--')) style[name] = rule.style.getPropertyValue(name);
      lightStyle = style as CSSProperties;
      return lightStyle;
    }
  }
  return style as CSSProperties;
}

/** One side of a light/dark pair, in that mode's platform colours whatever the page's theme. */
export function ModePanel({ mode, children }: { mode: Mode; children: ReactNode }) {
  return (
    <div
      className={`pl-panel pl-panel-${mode}`}
      data-theme={mode}
      style={mode === 'light' ? lightTokens() : undefined}
    >
      {children}
    </div>
  );
}

/** A token shown as what it is: a swatch, a bar, a corner, a shadow, text in its size ... */
export function TokenSample({ token, mode, value }: { token: Token; mode: Mode; value: string }) {
  const label = `${token.name} in ${mode}`;
  const box = (style: CSSProperties, className = 'pl-box') => (
    <span className={className} role="img" aria-label={label} style={style} />
  );
  const text = (style: CSSProperties, sample = 'Aa') => (
    <span className="pl-text-sample" style={style}>
      {sample}
    </span>
  );
  switch (token.category) {
    case 'color':
      return box({ background: value }, 'pl-box pl-swatch');
    case 'spacing':
    case 'breakpoint':
      return box(
        {
          width:
            token.category === 'breakpoint'
              ? `min(100%, calc(${value} / 8))`
              : `max(${value}, calc(-1 * ${value}))`,
        },
        'pl-bar',
      );
    case 'radius':
      return box({ borderRadius: value });
    case 'shadow':
      return box({ boxShadow: value });
    case 'opacity':
      return box({ opacity: value }, 'pl-box pl-filled');
    case 'border':
      return box({ borderWidth: value }, 'pl-box pl-bordered');
    case 'motion':
      return box({ animationDuration: value }, 'pl-dot pl-moving');
    case 'easing':
      return box({ animationTimingFunction: value }, 'pl-dot pl-moving');
    case 'typography':
      return text({ fontSize: value });
    case 'font-family':
      return text({ fontFamily: value }, 'The quick brown fox');
    case 'font-weight':
      return text({ fontWeight: value });
    case 'letter-spacing':
      return text({ letterSpacing: value }, 'Letter spacing');
    case 'line-height':
      return text({ lineHeight: value }, 'Two lines of text to show the height of a line.');
    default:
      return null;
  }
}

/** A token in both modes side by side, each value under its sample. */
export function TokenPair({ token, byId }: { token: Token; byId: ReadonlyMap<string, Token> }) {
  return (
    <div className="pl-pair">
      {(['light', 'dark'] as const).map((mode) => {
        const value = valueIn(token, mode, byId);
        return (
          <ModePanel key={mode} mode={mode}>
            <span className="pl-mode">{mode === 'light' ? 'Light' : 'Dark'}</span>
            <TokenSample token={token} mode={mode} value={value} />
            <code>{value}</code>
          </ModePanel>
        );
      })}
    </div>
  );
}
