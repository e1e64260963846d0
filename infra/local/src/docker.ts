import { setTimeout as sleep } from 'node:timers/promises';

let answer: Promise<boolean> | undefined;

/** Whether a Docker (or compatible) engine answers; asked once per process, given up after 5 s. */
export function dockerAnswers(): Promise<boolean> {
  answer ??= import('testcontainers').then(({ getContainerRuntimeClient }) =>
    Promise.race([
      getContainerRuntimeClient().then(
        () => true,
        () => false,
      ),
      sleep(5000, false, { ref: false }),
    ]),
  );
  return answer;
}
