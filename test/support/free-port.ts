import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where ports are looked for when the kernel's ephemeral range cannot be read (Linux's default is 32768-60999). */
const FALLBACK_RANGE = { low: 10_000, high: 32_767 };

/**
 * A TCP port free on 127.0.0.1 right now, for a server a test starts later. It is picked below the
 * kernel's ephemeral range: a port the kernel hands out for `listen(0)` comes from the same range
 * as the source ports of outgoing connections, and with many tests connecting in parallel one of
 * those connections could take it before the server binds it (EADDRINUSE). Each Jest worker picks
 * at random from a block of its own, and each try is checked by binding it.
 */
export async function freePort(): Promise<number> {
  const { low, high } = blockOfThisWorker(portsOutsideEphemeralRange());
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`No free port found between ${low} and ${high}`);
}

/** Blocks of the range, one per Jest worker (8 at most here), so parallel workers never pick the same port. */
const BLOCKS = 8;

function blockOfThisWorker({ low, high }: { low: number; high: number }): { low: number; high: number } {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0) % BLOCKS;
  const size = Math.floor((high - low + 1) / BLOCKS);
  return { low: low + worker * size, high: low + (worker + 1) * size - 1 };
}

function portsOutsideEphemeralRange(): { low: number; high: number } {
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(first) && first > FALLBACK_RANGE.low + 1000)
      return { low: FALLBACK_RANGE.low, high: first - 1 };
  } catch {
    // Not Linux, or not readable: the usual range.
  }
  return FALLBACK_RANGE;
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
