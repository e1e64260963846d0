// The edge's gateways: one under `npm start`, several in the clustered mode (`--replicas N`), as an
// Ingress has a Service with several gateway pods behind it.
import { takesConnections } from '@ruilplein/service-kit/probe';

/** How often a gateway that refused a connection is tried again (a TCP connect, not a request). */
export const PROBE_MS = 250;

interface Gateway {
  url: string;
  /** Refused a connection and has not taken one since. */
  down: boolean;
  probe?: NodeJS.Timeout;
}

/**
 * Takes turns over the gateways that are not known to be down. A refusal marks one down, and a
 * probe every PROBE_MS brings it back once it takes connections, so no member's request is the one
 * that finds out it is back.
 */
export class GatewayPool {
  readonly #gateways: Gateway[];
  #turn = 0;

  constructor(urls: readonly string[]) {
    if (!urls.length) throw new Error('the edge needs a gateway');
    this.#gateways = urls.map((url) => ({ url, down: false }));
  }

  get size(): number {
    return this.#gateways.length;
  }

  /** The next gateway not down and not in `tried`; when every untried one is down, one of those anyway (it may be back). */
  pick(tried: ReadonlySet<string> = new Set()): string | undefined {
    const untried = this.#gateways.filter((g) => !tried.has(g.url));
    if (!untried.length) return undefined;
    const up = untried.filter((g) => !g.down);
    const from = up.length ? up : untried;
    return from[this.#turn++ % from.length]!.url;
  }

  /** `url` refused a connection: passed over until a probe gets through. */
  refused(url: string): void {
    const gateway = this.#gateways.find((g) => g.url === url);
    if (!gateway || this.#gateways.length === 1) return;
    gateway.down = true;
    if (gateway.probe) return;
    gateway.probe = setInterval(() => {
      void takesConnections(url).then((up) => {
        if (!up || !gateway.probe) return;
        clearInterval(gateway.probe);
        gateway.probe = undefined;
        gateway.down = false;
      });
    }, PROBE_MS);
    gateway.probe.unref();
  }

  stop(): void {
    for (const g of this.#gateways) {
      clearInterval(g.probe);
      g.probe = undefined;
    }
  }
}
