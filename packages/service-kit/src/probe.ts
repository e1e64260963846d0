// Whether an upstream is there at all, before a proxy hands it a client it cannot give back: the
// gateway before a hub's websocket goes to an instance, the local edge before one goes to a gateway.
import { connect } from 'node:net';

/**
 * Whether a TCP connection to the URL's host and port is accepted (and closed again at once). Only a
 * refusal counts as down: a slow answer, or any other error, is the proxy's to time out or report.
 */
export function takesConnections(url: string | URL): Promise<boolean> {
  const { hostname, port, protocol } = typeof url === 'string' ? new URL(url) : url;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || (protocol === 'https:' ? 443 : 80)) });
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'ECONNREFUSED'));
    socket.once('close', () => resolve(true));
  });
}
