import { Liquid } from 'liquidjs';
import { badRequest, dataValidator } from '@platform/core';
import type { LocaleForm, SlackForm, TemplateContent } from '../../database.js';
import { SOURCE_LIMIT } from '../../schemas/templates.js';

// Templates are Liquid (liquidjs, the language Knock and Shopify use): `{{ name }}` placeholders,
// filters and loops, and nothing that runs code. No file is ever read (`templates: {}` stands in
// for the file system, so include, render and layout find nothing) and every render is bounded.
const LIMITS = {
  /** Characters of one template's source: the longest form the API accepts (html). */
  parseLimit: SOURCE_LIMIT,
  /** Milliseconds of one render. */
  renderLimit: 1000,
  /** Characters one render may allocate (loops over large data). */
  memoryLimit: 10_000_000,
};

/** The rendered message of one locale of a template. */
export interface Rendered {
  locale: string;
  subject: string | null;
  text: string;
  html: string | null;
  slack: SlackForm | null;
}

type Validator = (data: unknown) => string | undefined;

/** Compiled data schemas kept per instance (the least recently used dropped beyond this). */
export const VALIDATORS_KEPT = 500;

/** The per-instance renderer: two engines (HTML output escaped, text not) and compiled schemas. */
export class TemplateEngine {
  private readonly html = new Liquid({ ...LIMITS, templates: {}, outputEscape: 'escape' });
  private readonly plain = new Liquid({ ...LIMITS, templates: {} });
  /** By `templateId:version`, least recently used first (a Map keeps insertion order). */
  private readonly validators = new Map<string, Validator>();

  constructor(private readonly kept = VALIDATORS_KEPT) {}

  /** The number of compiled schemas kept. */
  get cached() {
    return this.validators.size;
  }

  /**
   * Checks a template's content: its schema compiles (no regular expressions, no outside $ref:
   * 400 naming the path), every form parses, the fallback exists. Answers the compiled schema,
   * for `keep` once the version is stored.
   */
  check(content: TemplateContent): Validator {
    let validator: Validator;
    try {
      validator = dataValidator(content.schema);
    } catch (error) {
      throw badRequest(`schema is not a valid JSON Schema: ${(error as Error).message}`);
    }
    if (!Object.hasOwn(content.locales, content.fallbackLocale))
      throw badRequest(
        `fallbackLocale ${content.fallbackLocale} has no entry in locales (${Object.keys(content.locales).join(', ') || 'none'})`,
      );
    const forms = (prefix: string, locales: Record<string, LocaleForm>) => {
      for (const [locale, form] of Object.entries(locales))
        for (const [field, source] of sources(form))
          try {
            (field === 'html' ? this.html : this.plain).parse(source);
          } catch (error) {
            throw badRequest(
              `${prefix}.${locale}.${field} is not a valid template: ${firstLine(error)}`,
            );
          }
    };
    forms('locales', content.locales);
    if (content.digest) forms('digest.locales', content.digest.locales);
    return validator;
  }

  /** Keeps the compiled schema of a template's version (`templateId:version`). */
  keep(key: string, validator: Validator) {
    this.validators.delete(key);
    this.validators.set(key, validator);
    while (this.validators.size > this.kept)
      this.validators.delete(this.validators.keys().next().value as string);
  }

  /** Validates `data` against the template's schema: 400 naming the field. */
  validate(key: string, schema: Record<string, unknown>, data: unknown, name: string) {
    let validate = this.validators.get(key);
    if (!validate) {
      try {
        validate = dataValidator(schema);
      } catch (error) {
        throw badRequest(`The schema of template ${name} is refused: ${(error as Error).message}`);
      }
    }
    this.keep(key, validate);
    const problem = validate(data);
    if (problem)
      throw badRequest(`data does not fit the schema of template ${name}: data.${problem}`);
  }

  /** Renders the form of `locale` (its language, else the fallback) with `data`. */
  async render(
    content: TemplateContent,
    locales: Record<string, LocaleForm>,
    data: Record<string, unknown>,
    locale: string | undefined,
  ): Promise<Rendered> {
    const chosen = pickLocale(locales, locale, content.fallbackLocale);
    const form = locales[chosen];
    const run = async (engine: Liquid, source: string | undefined, field: string) => {
      if (source === undefined) return null;
      try {
        return await engine.parseAndRender(source, data);
      } catch (error) {
        throw badRequest(`${field} of locale ${chosen} could not be rendered: ${firstLine(error)}`);
      }
    };
    const slack = form.slack
      ? {
          text: (await run(this.plain, form.slack.text, 'slack.text')) ?? '',
          ...(form.slack.blocks
            ? { blocks: (await this.leaves(form.slack.blocks, data)) as unknown[] }
            : {}),
        }
      : null;
    return {
      locale: chosen,
      subject: await run(this.plain, form.subject, 'subject'),
      text: (await run(this.plain, form.text, 'text')) ?? '',
      html: await run(this.html, form.html, 'html'),
      slack,
    };
  }

  /** Slack blocks with each string rendered (JSON is built, never templated as text). */
  private async leaves(value: unknown, data: Record<string, unknown>): Promise<unknown> {
    if (typeof value === 'string') return this.plain.parseAndRender(value, data);
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.leaves(v, data)));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await this.leaves(v, data);
      return out;
    }
    return value;
  }
}

/** The exact locale, else its language (de-CH -> de), else the fallback. */
export function pickLocale(
  locales: Record<string, unknown>,
  wanted: string | undefined,
  fallback: string,
): string {
  if (wanted !== undefined) {
    if (Object.hasOwn(locales, wanted)) return wanted;
    const language = wanted.split('-')[0];
    if (Object.hasOwn(locales, language)) return language;
  }
  return fallback;
}

function sources(form: LocaleForm): Array<[string, string]> {
  const out: Array<[string, string]> = [['text', form.text]];
  if (form.subject !== undefined) out.push(['subject', form.subject]);
  if (form.html !== undefined) out.push(['html', form.html]);
  if (form.slack?.text !== undefined) out.push(['slack.text', form.slack.text]);
  const strings = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value.flatMap(strings)
        : value !== null && typeof value === 'object'
          ? Object.values(value).flatMap(strings)
          : [];
  for (const s of strings(form.slack?.blocks ?? [])) out.push(['slack.blocks', s]);
  return out;
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0];
