import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseConfigSchema, ConfigError, parseConfig } from '../src/config.ts';

const schema = baseConfigSchema.extend({ NATS_URL: z.string().regex(/^nats:\/\//) });

describe('parseConfig', () => {
  it('applies defaults and coerces numbers', () => {
    const config = parseConfig(schema, { NATS_URL: 'nats://127.0.0.1:4222', PORT: '9000' });
    expect(config.PORT).toBe(9000);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('names a missing variable in one line', () => {
    expect(() => parseConfig(schema, {})).toThrow(new ConfigError('config: NATS_URL is missing'));
  });

  it('names a malformed variable in one line', () => {
    try {
      parseConfig(schema, { NATS_URL: 'nats://x', PORT: '99999' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/^config: PORT is invalid \(.+\)$/);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
