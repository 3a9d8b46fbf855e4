// zod at the HTTP boundary: handlers parse what they read, and a mismatch becomes a 400 with a readable
// message instead of a crash further in.
import type { Request } from 'express';
import type { z } from 'zod';
import { badRequest, describeZodError } from './errors';

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = 'request'): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const { message, issues } = describeZodError(result.error);
    throw badRequest(`Invalid ${what}: ${message}`, issues);
  }
  return result.data;
}

export const parseBody = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.body ?? {}, 'body');
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.query, 'query');
export const parseParams = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.params, 'path');
