/**
 * A server that enforces a rate limit but advertises nothing: the emulator
 * behind a loopback proxy that drops the `X-RateLimit-*` headers from every
 * answer (a 429 keeps its status and `Retry-After`), as a gateway that
 * strips unknown headers would. The client then learns the limit only from
 * the 429s (src/api/rate-limit.ts, 3).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SilentProxy {
  url: string;
  close(): Promise<void>;
}

const ADVERTISING = /^x-ratelimit-/i;

export async function silentProxy(target: string): Promise<SilentProxy> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !ADVERTISING.test(name)));
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
