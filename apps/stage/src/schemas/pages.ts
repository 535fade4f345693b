import { Type } from '@platform/core';

// The old addresses on the platform's origin, /app/<sid>/... and /preview/<id>/... (routes/pages.ts).

const Key = Type.String({ minLength: 1, maxLength: 100 });

export const PageParams = Type.Object({ key: Key, '*': Type.Optional(Type.String()) });

// A longer `to` (up to the request line's limit) comes back to `/`: safePath decides, not a 400.
export const SigninQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 16_384 })),
  state: Type.Optional(Type.String({ maxLength: 100 })),
});
