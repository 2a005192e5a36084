import type { Request, Response } from 'express';

/** Whether the client asked for Server-Sent Events. */
export function acceptsEventStream(req: Request): boolean {
  return /\btext\/event-stream\b/i.test(req.headers.accept ?? '');
}

/** Starts a Server-Sent Events answer: 200, the SSE headers (no proxy buffering), sent at once. */
export function startEventStream(res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
}
