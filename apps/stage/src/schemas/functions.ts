import { Type } from '@platform/core';
import { FUNCTION_NAMES } from '../domain/functions.js';

export const FunctionParams = Type.Object({
  name: Type.Union(FUNCTION_NAMES.map((n) => Type.Literal(n))),
});

export const FunctionBody = Type.Object({
  args: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: "The function's arguments" }),
  ),
});
