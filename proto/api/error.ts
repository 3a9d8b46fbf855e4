// The body of every error the gateway answers (4xx and 5xx alike): one message a person can read, and a
// stable code a program can switch on (platform grpc/reasons.ts maps a service's reason to it).
import * as z from 'zod/mini';

export const apiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    code: z._default(z.optional(z.string()), 'error'),
    /** The failed rules of a 400 ({ path, message }[]), when the input check gave them. */
    details: z.optional(z.unknown()),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
