import { z } from 'zod';

/** Variables every service reads; a service extends this with its own. */
export const baseConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_JWKS_URL: z.url().default('http://auth:8080/.well-known/jwks.json'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
});

export const mongoConfigSchema = z.object({
  MONGODB_URL: z.string().regex(/^mongodb(\+srv)?:\/\/.+/, 'expected mongodb://host:port'),
});

export const natsConfigSchema = z.object({
  NATS_URL: z.string().regex(/^(nats|tls):\/\/.+/, 'expected nats://host:port'),
});

export const redisConfigSchema = z.object({
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/, 'expected redis://host:port'),
});

export class ConfigError extends Error {}

/**
 * Parses the environment; the error names the first bad variable in one line, so a pod that
 * will not start says why in its first log line.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.join('.') || '(environment)';
  const problem = env[name] === undefined ? 'is missing' : `is invalid (${issue.message})`;
  throw new ConfigError(`config: ${name} ${problem}`);
}
