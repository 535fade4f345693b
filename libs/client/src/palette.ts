import { endpoint, type Transport } from './transport.js';

export type TokenCategory =
  | 'color'
  | 'spacing'
  | 'typography'
  | 'radius'
  | 'shadow'
  | 'opacity'
  | 'z-index'
  | 'motion'
  | 'breakpoint'
  | 'border';

export interface DesignToken {
  id: string;
  name: string;
  category: TokenCategory;
  value: { default: string; dark: string | null };
  cssVariable: string;
  tailwindKey: string;
  group: string | null;
  description: string | null;
  tags: string[];
  created: string;
  updated: string;
}

export interface DesignTokenInput {
  name: string;
  category: TokenCategory;
  value: string | { default: string; dark?: string | null };
  dark?: string | null;
  cssVariable?: string;
  tailwindKey?: string;
  group?: string | null;
  description?: string | null;
  tags?: string[];
}

export interface ComponentProp {
  name: string;
  type?: string;
  required?: boolean;
  default?: string | null;
  description?: string | null;
}

export interface DesignComponent {
  id: string;
  name: string;
  status: 'draft' | 'experimental' | 'beta' | 'stable' | 'deprecated';
  category: string | null;
  description: string | null;
  props: Required<ComponentProp>[];
  variants: Array<{ name: string; description: string | null }>;
  examples: Array<{ name: string; code: string; description: string | null }>;
  /** Ids of the tokens it uses. */
  tokens: string[];
  tags: string[];
  created: string;
  updated: string;
}

export interface DesignComponentInput {
  name: string;
  status?: DesignComponent['status'];
  category?: string | null;
  description?: string | null;
  props?: ComponentProp[];
  variants?: Array<{ name: string; description?: string | null }>;
  /** Token ids or names. */
  tokens?: string[];
  tags?: string[];
}

export interface Contrast {
  ratio: number;
  aa: { normal: boolean; large: boolean };
  aaa: { normal: boolean; large: boolean };
}

export interface PaletteSearchResult {
  kind: 'token' | 'component' | 'pattern' | 'standard' | 'rule';
  id: string;
  name: string;
  description: string | null;
  score: number;
}

type Ref = { id: string; name: string };
type Page = { limit?: number; offset?: number };
type Json = Record<string, unknown>;

/** Design system (spec 4.5). Patterns, standards and rules are typed loosely (`Json`). */
export class PaletteClient {
  private readonly send;

  constructor(transport: Transport) {
    this.send = endpoint(transport, '/api/v1/palette');
  }

  listTokens(filter: { category?: TokenCategory; group?: string; tag?: string } & Page = {}) {
    return this.send<DesignToken[]>('GET', ['tokens'], { query: filter });
  }
  createToken(token: DesignTokenInput) {
    return this.send<DesignToken>('POST', ['tokens'], { body: token });
  }
  getToken(idOrName: string) {
    return this.send<DesignToken & { usage: { components: Ref[]; patterns: Ref[] } }>('GET', [
      'tokens',
      idOrName,
    ]);
  }
  updateToken(idOrName: string, changes: Partial<DesignTokenInput>) {
    return this.send<DesignToken>('PUT', ['tokens', idOrName], { body: changes });
  }
  deleteToken(idOrName: string) {
    return this.send<DesignToken>('DELETE', ['tokens', idOrName]);
  }
  contrast(foreground: string, background: string) {
    return this.send<{ foreground: Ref; background: Ref; light: Contrast; dark: Contrast }>(
      'GET',
      ['tokens', 'contrast'],
      { query: { foreground, background } },
    );
  }
  export(format: 'css' | 'json' | 'tailwind' | 'tailwind4') {
    return this.send<{ format: string; output: string }>('GET', ['export'], { query: { format } });
  }

  listComponents(filter: { status?: string; category?: string; tag?: string } & Page = {}) {
    return this.send<DesignComponent[]>('GET', ['components'], { query: filter });
  }
  createComponent(component: DesignComponentInput) {
    return this.send<DesignComponent>('POST', ['components'], { body: component });
  }
  getComponent(idOrName: string) {
    return this.send<
      DesignComponent & { resolved: { tokens: DesignToken[]; patterns: Ref[]; rules: Json[] } }
    >('GET', ['components', idOrName]);
  }
  updateComponent(idOrName: string, changes: Partial<DesignComponentInput>) {
    return this.send<DesignComponent>('PUT', ['components', idOrName], { body: changes });
  }
  deleteComponent(idOrName: string) {
    return this.send<DesignComponent>('DELETE', ['components', idOrName]);
  }
  addProp(idOrName: string, prop: ComponentProp) {
    return this.send<DesignComponent>('POST', ['components', idOrName, 'props'], { body: prop });
  }
  addVariant(idOrName: string, variant: { name: string; description?: string | null }) {
    return this.send<DesignComponent>('POST', ['components', idOrName, 'variants'], {
      body: variant,
    });
  }
  addExample(
    idOrName: string,
    example: { name: string; code: string; description?: string | null },
  ) {
    return this.send<DesignComponent>('POST', ['components', idOrName, 'examples'], {
      body: example,
    });
  }

  /** `kind`: patterns, standards or a11y. */
  list(
    kind: 'patterns' | 'standards' | 'a11y',
    filter: Record<string, string | number | undefined> = {},
  ) {
    return this.send<Json[]>('GET', [kind], { query: filter });
  }
  create(kind: 'patterns' | 'standards' | 'a11y', record: Json) {
    return this.send<Json>('POST', [kind], { body: record });
  }
  get(kind: 'patterns' | 'standards' | 'a11y', idOrName: string) {
    return this.send<Json>('GET', [kind, idOrName]);
  }
  delete(kind: 'patterns' | 'standards' | 'a11y', idOrName: string) {
    return this.send<Json>('DELETE', [kind, idOrName]);
  }
  addStep(
    pattern: string,
    step: { title: string; description?: string | null; component?: string | null },
  ) {
    return this.send<Json>('POST', ['patterns', pattern, 'steps'], { body: step });
  }

  search(q: string, options: { kind?: PaletteSearchResult['kind']; limit?: number } = {}) {
    return this.send<{ query: string; count: number; results: PaletteSearchResult[] }>(
      'GET',
      ['search'],
      {
        query: { q, ...options },
      },
    );
  }
}
