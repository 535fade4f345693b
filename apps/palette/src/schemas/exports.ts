import { Type } from '@platform/core';
import { FORMATS } from '../domain/exports.js';

export const ExportQuery = Type.Object({ format: Type.Enum([...FORMATS], { title: 'format' }) });

export const ExportSchema = Type.Object({
  format: Type.Enum([...FORMATS]),
  output: Type.String(),
});
