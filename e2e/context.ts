// What the e2e globalSetup (setup.ts) hands to the test files.
import type {} from 'vitest';

export interface E2EContext {
  /** The platform's origin, as a browser opens it. */
  url: string;
  /** setup.ts's switch for the edge (see `setRemote` in platform.ts). */
  controlUrl: string;
  /** Removed after the run: saved login states, rebuilt copies of remotes. */
  tmpDir: string;
  /** The platform's MongoDB-compatible store: tests set what no screen can yet (a suspension) in a service's own database. */
  mongoUrl: string;
  /** Write a number of milliseconds here to move every service's clock forward (service-kit clock.ts); see `moveClock` in platform.ts. */
  clockFile: string;
  /** Each remote's build folder by its name under /mfe/ (`listings`, `trades`, `admin`). */
  remotes: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2EContext;
  }
}
