import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent } from 'undici';
import { answerOf } from './dispatch-answer';

describe('answerOf', () => {
  let server: http.Server;
  let origin: string;
  const agent = new Agent();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setTimeout(() => res.end('data: two\n\n'), 20);
        return;
      }
      if (req.url === '/hang') return;
      if (req.url === '/stream-open') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.write('data: one\n\n');
      }
      if (req.url === '/large') return void res.end('x'.repeat(1025));
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(201, { 'content-type': 'application/json', 'X-Extra': 'yes' });
      res.write('{"a":');
      setTimeout(() => res.end('1}'), 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string, buffered: boolean, signal = new AbortController().signal) =>
    answerOf(agent, { origin, path, method: 'GET', signal }, buffered ? 1024 : undefined);

  it('reads a body that is not an event stream in full, with its status and headers', async () => {
    const answer = await get('/json', true);
    expect(answer.statusCode).toBe(201);
    expect(Buffer.isBuffer(answer.body) && answer.body.toString()).toBe('{"a":1}');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-extra']).toBe('yes');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  it('streams an event stream as it comes', async () => {
    const answer = await get('/stream', true);
    expect(answer.body).toBeInstanceOf(Readable);
    const chunks: string[] = [];
    for await (const chunk of answer.body as Readable) chunks.push(String(chunk));
    expect(chunks.join('')).toBe('data: one\n\ndata: two\n\n');
  });

  it('streams every body when not buffered', async () => {
    const answer = await get('/json', false);
    expect(answer.body).toBeInstanceOf(Readable);
    let text = '';
    for await (const chunk of answer.body as Readable) text += String(chunk);
    expect(text).toBe('{"a":1}');
  });

  it('refuses a body past the size it may buffer, and not an event stream', async () => {
    await expect(get('/large', true)).rejects.toMatchObject({
      message: `Response from ${origin} is larger than 1024 bytes`,
      details: { reason: 'response too large', maxBytes: 1024 },
    });
    const large = await get('/large', false);
    let size = 0;
    for await (const chunk of large.body as Readable) size += (chunk as Buffer).length;
    expect(size).toBe(1025);
  });

  it("rejects with the signal's reason, before the answer or while its stream is read", async () => {
    const waiting = new AbortController();
    const pending = get('/hang', true, waiting.signal);
    setTimeout(() => waiting.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const aborted = new AbortController();
    aborted.abort();
    await expect(get('/json', true, aborted.signal)).rejects.toMatchObject({ name: 'AbortError' });

    const streaming = new AbortController();
    const answer = await get('/stream-open', true, streaming.signal);
    const body = answer.body as Readable;
    await new Promise((resolve) => body.once('data', resolve));
    streaming.abort();
    await expect(
      (async () => {
        for await (const chunk of body) void chunk;
      })(),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
