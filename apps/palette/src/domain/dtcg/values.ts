import { parse } from 'culori';
import { unsafeCss } from '../css.js';
import { FONT_WEIGHTS, fontFamilyCss, STROKE_STYLES } from '../values.js';
import { colorCss, colorProblems } from './color.js';
import { isObject } from './tree.js';

// The values of every DTCG 2025.10 type: their checks (each problem with its JSON path) and their
// CSS form. A property of a composite may be an alias of a token of the property's type.

export const DTCG_TYPES = [
  'color',
  'dimension',
  'fontFamily',
  'fontWeight',
  'duration',
  'cubicBezier',
  'number',
  'strokeStyle',
  'border',
  'transition',
  'shadow',
  'gradient',
  'typography',
] as const;
export type DtcgType = (typeof DTCG_TYPES)[number];

/** What the checks and the CSS need to know of aliases inside a value. */
export interface AliasContext {
  /** The path an alias value names (`{a.b}` or `{ "$ref": "#/a/b" }`), or null when not one. */
  aliasPath(value: unknown): string | null;
  /** The type of the token at a path (aliases followed), or undefined when there is none. */
  typeOf(path: string): string | undefined;
  /** The CSS custom property of the token at a path. */
  cssVariable(path: string): string;
}

const FONT_WEIGHT_NAMES = Object.keys(FONT_WEIGHTS);
const STROKES = STROKE_STYLES;
const LINE_CAPS = ['round', 'butt', 'square'];

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The properties of each composite type, with their types (`?`: optional). */
const COMPOSITES: Record<string, Record<string, string>> = {
  border: { color: 'color', width: 'dimension', style: 'strokeStyle' },
  transition: { duration: 'duration', delay: 'duration', timingFunction: 'cubicBezier' },
  shadow: {
    color: 'color',
    offsetX: 'dimension',
    offsetY: 'dimension',
    blur: 'dimension',
    spread: 'dimension',
    inset: 'boolean?',
  },
  // The schema requires all five; published files (Figma's SDS) leave out the last three, which
  // CSS then takes as `normal`: read as optional.
  typography: {
    fontFamily: 'fontFamily',
    fontSize: 'dimension',
    fontWeight: 'fontWeight?',
    letterSpacing: 'dimension?',
    lineHeight: 'number?',
  },
};

/** The legacy (pre-2025.10, Style Dictionary 4) form of a color: a CSS color string. */
const legacyColor = (value: unknown): value is string =>
  typeof value === 'string' && unsafeCss(value) === null && parse(value) !== undefined;
/** The legacy form of a dimension or duration: `16px`, `-0.5rem`, `120ms`, `0`. */
const legacyUnit = (value: unknown, units: string[]): value is string =>
  typeof value === 'string' &&
  new RegExp(`^(?:[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:${units.join('|')})|0)$`).test(value);

function unitValue(value: unknown, at: string, units: string[], what: string): string[] {
  if (legacyUnit(value, units)) return [];
  if (!isObject(value) || !isNumber(value.value) || !units.includes(value.unit as string))
    return [
      `${at}: a ${what} is an object { value: <number>, unit: ${units.map((u) => `"${u}"`).join(' | ')} }`,
    ];
  const extra = Object.keys(value).filter((k) => k !== 'value' && k !== 'unit');
  return extra.map((k) => `${at}/${k}: not a property of a ${what}`);
}

/** The problems of a value of a type; a (whole) alias is checked by the caller. */
export function valueProblems(
  type: string,
  value: unknown,
  at: string,
  ctx: AliasContext,
): string[] {
  const sub = (subType: string, v: unknown, subAt: string): string[] => {
    const path = ctx.aliasPath(v);
    if (path === null) return valueProblems(subType, v, subAt, ctx);
    const target = ctx.typeOf(path);
    if (target === undefined) return [`${subAt}: refers to ${path}, which is not a token`];
    return target === subType
      ? []
      : [`${subAt}: refers to ${path}, a ${target} token; a ${subType} is expected`];
  };
  switch (type) {
    case 'color':
      return legacyColor(value) ? [] : colorProblems(value, at);
    case 'dimension':
      return unitValue(value, at, ['px', 'rem'], 'dimension');
    case 'duration':
      return unitValue(value, at, ['ms', 's'], 'duration');
    case 'number':
      return isNumber(value) ? [] : [`${at}: a number is expected`];
    case 'fontFamily':
      return typeof value === 'string' && value !== ''
        ? []
        : Array.isArray(value) &&
            value.length > 0 &&
            value.every((f) => typeof f === 'string' && f !== '')
          ? []
          : [`${at}: a font family is a name or a list of names`];
    case 'fontWeight':
      return (isNumber(value) && value >= 1 && value <= 1000) ||
        (typeof value === 'string' && Object.hasOwn(FONT_WEIGHTS, value))
        ? []
        : [
            `${at}: a font weight is a number from 1 to 1000 or one of ${FONT_WEIGHT_NAMES.join(', ')}`,
          ];
    case 'cubicBezier':
      if (!Array.isArray(value) || value.length !== 4)
        return [`${at}: a cubic bézier is an array of four numbers`];
      return value.flatMap((p, i) => {
        if (ctx.aliasPath(p) !== null) return sub('number', p, `${at}/${i}`);
        if (!isNumber(p)) return [`${at}/${i}: a number is expected`];
        return i % 2 === 0 && (p < 0 || p > 1)
          ? [`${at}/${i}: an x coordinate is from 0 to 1`]
          : [];
      });
    case 'strokeStyle':
      if (typeof value === 'string')
        return STROKES.includes(value)
          ? []
          : [`${at}: a stroke style is one of ${STROKES.join(', ')} or { dashArray, lineCap }`];
      if (!isObject(value) || !Array.isArray(value.dashArray) || value.dashArray.length === 0)
        return [`${at}: a stroke style is one of ${STROKES.join(', ')} or { dashArray, lineCap }`];
      return [
        ...value.dashArray.flatMap((d, i) => sub('dimension', d, `${at}/dashArray/${i}`)),
        ...(LINE_CAPS.includes(value.lineCap as string)
          ? []
          : [`${at}/lineCap: one of ${LINE_CAPS.join(', ')}`]),
      ];
    case 'gradient':
      if (!Array.isArray(value) || value.length === 0)
        return [`${at}: a gradient is an array of stops { color, position }`];
      return value.flatMap((stop, i) => {
        if (!isObject(stop)) return [`${at}/${i}: a stop is { color, position }`];
        const position =
          ctx.aliasPath(stop.position) !== null
            ? sub('number', stop.position, `${at}/${i}/position`)
            : isNumber(stop.position)
              ? []
              : [`${at}/${i}/position: a number from 0 to 1 is expected`];
        return [...sub('color', stop.color, `${at}/${i}/color`), ...position];
      });
    case 'shadow':
      if (Array.isArray(value)) {
        if (value.length === 0) return [`${at}: a list of shadows is not empty`];
        return value.flatMap((layer, i) =>
          ctx.aliasPath(layer) !== null
            ? sub('shadow', layer, `${at}/${i}`)
            : composite('shadow', layer, `${at}/${i}`),
        );
      }
      return composite('shadow', value, at);
    case 'border':
    case 'transition':
    case 'typography':
      return composite(type, value, at);
    default:
      return [`${at}: ${JSON.stringify(type)} is not a DTCG type (${DTCG_TYPES.join(', ')})`];
  }

  function composite(kind: string, v: unknown, cAt: string): string[] {
    if (!isObject(v)) return [`${cAt}: a ${kind} is an object`];
    const props = COMPOSITES[kind];
    const problems: string[] = [];
    for (const [prop, propType] of Object.entries(props)) {
      const optional = propType.endsWith('?');
      if (v[prop] === undefined) {
        if (!optional) problems.push(`${cAt}/${prop}: missing (a ${propType})`);
      } else if (propType === 'boolean?') {
        if (typeof v[prop] !== 'boolean') problems.push(`${cAt}/${prop}: true or false`);
      } else problems.push(...sub(propType.replace('?', ''), v[prop], `${cAt}/${prop}`));
    }
    for (const key of Object.keys(v))
      if (!Object.hasOwn(props, key)) problems.push(`${cAt}/${key}: not a property of a ${kind}`);
    return problems;
  }
}

/** A (valid) value as CSS; aliases inside become `var()` of their token. */
export function valueCss(type: string, value: unknown, ctx: AliasContext): string {
  const path = ctx.aliasPath(value);
  if (path !== null) return `var(${ctx.cssVariable(path)})`;
  const v = value as Record<string, unknown>;
  const css = (t: string, x: unknown) => valueCss(t, x, ctx);
  // The legacy forms of colors, dimensions and durations are CSS already.
  if (typeof value === 'string' && ['color', 'dimension', 'duration'].includes(type)) return value;
  switch (type) {
    case 'color':
      return colorCss(v);
    case 'dimension':
    case 'duration':
      return `${String(v.value)}${String(v.unit)}`;
    case 'number':
      return String(value);
    case 'fontFamily':
      return fontFamilyCss(Array.isArray(value) ? (value as string[]) : [value as string]);
    case 'fontWeight':
      return String(typeof value === 'number' ? value : FONT_WEIGHTS[value as string]);
    case 'cubicBezier':
      return `cubic-bezier(${(value as unknown[]).map((p) => css('number', p)).join(', ')})`;
    case 'strokeStyle':
      // CSS has no dash arrays: an object is dashed in CSS (the DTCG export keeps the array).
      return typeof value === 'string' ? value : 'dashed';
    case 'border':
      return `${css('dimension', v.width)} ${css('strokeStyle', v.style)} ${css('color', v.color)}`;
    case 'transition':
      return `${css('duration', v.duration)} ${css('cubicBezier', v.timingFunction)} ${css('duration', v.delay)}`;
    case 'shadow': {
      // As the palette writes shadows: zero lengths as 0, a spread of 0 left out.
      const length = (d: unknown) => {
        const text = css('dimension', d);
        return /^[+-]?0*\.?0+(px|rem)$/.test(text) ? '0' : text;
      };
      return (Array.isArray(value) ? value : [value])
        .map((l: Record<string, unknown>) =>
          ctx.aliasPath(l) !== null
            ? css('shadow', l)
            : [
                l.inset ? 'inset' : null,
                length(l.offsetX),
                length(l.offsetY),
                length(l.blur),
                length(l.spread) === '0' ? null : length(l.spread),
                css('color', l.color),
              ]
                .filter((p) => p !== null)
                .join(' '),
        )
        .join(', ');
    }
    case 'gradient':
      return `linear-gradient(${(value as Array<Record<string, unknown>>)
        .map((s) => {
          const p = ctx.aliasPath(s.position);
          return `${css('color', s.color)} ${p === null ? `${+(Number(s.position) * 100).toPrecision(12)}%` : `calc(var(${ctx.cssVariable(p)}) * 100%)`}`;
        })
        .join(', ')})`;
    case 'typography':
      // The font shorthand; letter spacing has no place in it (the DTCG export keeps it).
      return [
        v.fontWeight === undefined ? null : css('fontWeight', v.fontWeight),
        `${css('dimension', v.fontSize)}${v.lineHeight === undefined ? '' : `/${css('number', v.lineHeight)}`}`,
        css('fontFamily', v.fontFamily),
      ]
        .filter((p) => p !== null)
        .join(' ');
    default:
      return String(value);
  }
}
