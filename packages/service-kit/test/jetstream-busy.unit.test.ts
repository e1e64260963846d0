import { NatsError } from 'nats';
import { describe, expect, it } from 'vitest';
import { whileJetStreamBusy } from '../src/nats.ts';

/** An answer of the JetStream API with its error code, as nats.js throws it. */
const apiError = (errCode: number, description: string) => {
  const err = new NatsError(description, '404');
  err.api_error = { code: 404, err_code: errCode, description };
  return err;
};

/** A step that fails with `errors` in turn, then answers 'ready'. */
function flaky(...errors: Error[]) {
  let calls = 0;
  return {
    step: async () => {
      const err = errors[calls++];
      if (err) throw err;
      return 'ready';
    },
    calls: () => calls,
  };
}

describe('whileJetStreamBusy', () => {
  it('runs a step again while a clustered JetStream settles a consumer two replicas created at once', async () => {
    const { step, calls } = flaky(apiError(10014, 'consumer not found'), apiError(10148, 'consumer already exists'));
    await expect(whileJetStreamBusy(step, 'consumer test', undefined, [10014, 10148])).resolves.toBe('ready');
    expect(calls()).toBe(3);
  });

  it('gives a "not found" at once to a step that did not say it may settle', async () => {
    const { step, calls } = flaky(apiError(10014, 'consumer not found'));
    await expect(whileJetStreamBusy(step, 'stream test')).rejects.toThrow('consumer not found');
    expect(calls()).toBe(1);
  });

  it('runs a step again while JetStream has no leader', async () => {
    const { step, calls } = flaky(apiError(10008, 'JetStream system temporarily unavailable'));
    await expect(whileJetStreamBusy(step, 'stream test')).resolves.toBe('ready');
    expect(calls()).toBe(2);
  });
});
