import { Nullable, ROLES, Type } from '@platform/core';

const ReturnTo = Type.String({
  maxLength: 2000,
  description:
    'Where to go after signing in: a path of this origin (starts with one /); anything else means /',
});

export const LoginQuery = Type.Object({
  returnTo: Type.Optional(ReturnTo),
  scopes: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Extra scopes to ask the sign-in provider for, space- or comma-separated (the sandbox asks for Google scopes this way); its tokens are kept as the connection `signin`',
    }),
  ),
});

/** What a provider sends back: more parameters than these may come (Google adds some). */
export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

const Role = Type.Enum(ROLES);
const Teams = Type.Array(Type.String(), {
  description: 'Catalog owners the caller is in (their members list, the groups claim, a team key)',
});

export const IdentitySchema = Type.Union([
  Type.Object({
    kind: Type.Literal('user'),
    email: Type.String(),
    name: Type.String(),
    sessionId: Type.String(),
    role: Role,
    groups: Type.Array(Type.String()),
    teams: Teams,
  }),
  Type.Object({
    kind: Type.Literal('key'),
    keyId: Type.String(),
    name: Type.String(),
    role: Role,
    scopes: Type.Array(Type.String()),
    owner: Nullable(Type.String()),
    team: Nullable(Type.String()),
    teams: Teams,
  }),
  Type.Object({ kind: Type.Literal('service'), name: Type.String() }),
  Type.Object({ kind: Type.Literal('anonymous') }),
]);

export const LogoutSchema = Type.Object({
  signedOut: Type.Boolean({ description: 'Whether a session was ended' }),
});
