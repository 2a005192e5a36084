import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookDelivery {
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface WebhookReceiver {
  url: string;
  /** Accepted deliveries, in the order they arrived. */
  received: WebhookDelivery[];
  /** Every call, failed ones included. */
  calls(): number;
  close(): Promise<void>;
}

/** A webhook on loopback that fails its first `failFirst` calls with 500, then records and accepts. */
export async function startWebhookReceiver(failFirst = 0): Promise<WebhookReceiver> {
  const received: WebhookDelivery[] = [];
  let calls = 0;
  const app = express();
  app.post('/hook', express.json({ type: () => true }), (req, res) => {
    calls++;
    if (calls <= failFirst) return void res.status(500).end();
    received.push({ headers: req.headers, body: req.body as Record<string, unknown> });
    res.status(200).end();
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
