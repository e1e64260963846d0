import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** Ends the run with one line a script can read: `Tests: N passed, M failed[, K skipped]`. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      let moduleFailures = 0;
      for (const test of module.children.allTests()) {
        const { state } = test.result();
        count[state]++;
        if (state === 'failed') moduleFailures++;
      }
      // A file that fails outside any test (import error, failing hook) fails the run too.
      if (module.state() === 'failed' && moduleFailures === 0) count.failed++;
    }
    count.failed += unhandledErrors.length;
    const skipped = count.skipped ? `, ${count.skipped} skipped` : '';
    process.stdout.write(`Tests: ${count.passed} passed, ${count.failed} failed${skipped}\n`);
  }
}
