import dns from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { OutboundHttp } from './outbound-http';
import { outboundFailureReason } from './outbound-failures';
import {
  checkAddress,
  checkHostName,
  classifyAddress,
  type AddressClass,
  type OutboundPolicy,
} from './outbound-policy';

const LOOPBACK_OK: OutboundPolicy = {
  allowPrivateNetworks: false,
  allowLoopback: true,
  timeoutMs: 2000,
  maxResponseBytes: 64 * 1024,
  maxAnswerBytes: 64 * 1024,
};
const STRICT: OutboundPolicy = { ...LOOPBACK_OK, allowLoopback: false };
const EVERYTHING: OutboundPolicy = { ...LOOPBACK_OK, allowPrivateNetworks: true };

describe('outbound address policy', () => {
  it.each<[string, AddressClass]>([
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['198.19.255.255', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['198.20.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    // IPv4 embedded in IPv6: mapped, NAT64, IPv4-compatible, 6to4
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['[::ffff:a9fe:a9fe]', 'metadata'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['::169.254.169.254', 'metadata'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:224.0.0.1', 'multicast'],
    ['::ffff:255.255.255.255', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::8.8.8.8', 'public'],
  ])('classifies %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('is not fooled by non-addresses', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
    expect(checkAddress('example.com', EVERYTHING)).toEqual({ allowed: false, reason: 'not an IP address' });
  });

  it.each([
    '169.254.169.254',
    '::ffff:169.254.169.254',
    '100.100.100.200',
    'fd00:ec2::254',
    'fe80::1',
    '0.0.0.0',
    '::',
    '224.0.0.1',
    'ff02::1',
    '255.255.255.255',
  ])('refuses %s whatever the policy', (address) => {
    expect(checkAddress(address, EVERYTHING).allowed).toBe(false);
  });

  it('explains each refusal', () => {
    expect(checkAddress('169.254.169.254', EVERYTHING)).toEqual({
      allowed: false,
      reason: 'link-local/cloud-metadata addresses are never allowed',
    });
    expect(checkAddress('10.1.2.3', STRICT)).toEqual({
      allowed: false,
      reason: 'private network addresses are not allowed (set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow)',
    });
    expect(checkAddress('127.0.0.1', STRICT)).toEqual({
      allowed: false,
      reason: 'loopback addresses are not allowed (set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow)',
    });
    expect(checkAddress('239.1.1.1', EVERYTHING)).toEqual({
      allowed: false,
      reason: 'multicast addresses are never allowed',
    });
  });

  it('keeps the private-network and loopback switches apart', () => {
    const privateOnly = { allowPrivateNetworks: true, allowLoopback: false };
    const loopbackOnly = { allowPrivateNetworks: false, allowLoopback: true };
    expect(checkAddress('192.168.0.10', privateOnly)).toEqual({ allowed: true });
    expect(checkAddress('::ffff:192.168.0.10', privateOnly)).toEqual({ allowed: true });
    expect(checkAddress('127.0.0.1', privateOnly).allowed).toBe(false);
    expect(checkAddress('::1', privateOnly).allowed).toBe(false);
    expect(checkAddress('127.0.0.1', loopbackOnly)).toEqual({ allowed: true });
    expect(checkAddress('::ffff:127.0.0.1', loopbackOnly)).toEqual({ allowed: true });
    expect(checkAddress('192.168.0.10', loopbackOnly).allowed).toBe(false);
    expect(checkAddress('8.8.8.8', STRICT)).toEqual({ allowed: true });
  });

  it('refuses cloud metadata host names by name', () => {
    for (const name of ['metadata', 'metadata.google.internal', 'METADATA.Google.Internal.', 'metadata.goog']) {
      expect(checkHostName(name)).toEqual({
        allowed: false,
        reason: 'link-local/cloud-metadata addresses are never allowed',
      });
    }
    expect(checkHostName('agents.example.com')).toEqual({ allowed: true });
    expect(checkHostName('metadata.example.com')).toEqual({ allowed: true });
  });
});

describe('OutboundHttp', () => {
  const servers: http.Server[] = [];
  const clients: OutboundHttp[] = [];

  function client(policy: OutboundPolicy = LOOPBACK_OK): OutboundHttp {
    const created = new OutboundHttp(policy);
    clients.push(created);
    return created;
  }

  async function serve(handler: http.RequestListener): Promise<{ url: string; port: number; hits: () => number }> {
    let count = 0;
    const server = http.createServer((req, res) => {
      count++;
      handler(req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return { url: `http://127.0.0.1:${port}`, port, hits: () => count };
  }

  async function rejection(promise: Promise<unknown>): Promise<DomainError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
    throw new Error('expected a rejection');
  }

  let connectSpy: jest.SpyInstance;

  /** Hosts that sockets were opened to since the test began. */
  const connectedHosts = (): unknown[] =>
    connectSpy.mock.calls.map((args: unknown[]) => (args[0] as net.TcpNetConnectOpts).host);

  beforeEach(() => {
    // Records every socket opened and, should the guard ever regress, stops a test from sending
    // traffic anywhere but loopback.
    const realConnect = net.connect.bind(net) as (options: net.NetConnectOpts) => net.Socket;
    connectSpy = jest.spyOn(net, 'connect').mockImplementation(((options: net.TcpNetConnectOpts) => {
      if (!['127.0.0.1', '::1'].includes(String(options.host))) {
        throw new Error(`test tried to connect to ${String(options.host)}`);
      }
      return realConnect(options);
    }) as typeof net.connect);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });

  it('reaches a loopback server when the policy allows loopback', async () => {
    const { url } = await serve((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"name":"echo"}');
    });

    const response = await client().fetch(`${url}/card`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: 'echo' });
    expect(connectedHosts()).toEqual(['127.0.0.1']);
  });

  it('refuses loopback when the policy does not allow it, without connecting', async () => {
    const { url, hits } = await serve((_req, res) => res.end('no'));

    const error = await rejection(client(STRICT).fetch(`${url}/`));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toBe(
      'Refusing to connect to 127.0.0.1: loopback addresses are not allowed (set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow)',
    );
    expect(error.details).toEqual({ address: '127.0.0.1', reason: expect.stringContaining('loopback') });
    expect(hits()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://2852039166/'])(
    'refuses %s under any policy, without a network attempt',
    async (url) => {
      const http = client(EVERYTHING);
      for (const attempt of [http.fetch(url), http.getJson(url)]) {
        const error = await rejection(attempt);
        expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
        expect(error.details?.reason).toBe('link-local/cloud-metadata addresses are never allowed');
        expect(error.message).toMatch(/^Refusing to connect to (169\.254\.169\.254|::ffff:a9fe:a9fe): link-local/);
        expect(outboundFailureReason(error)).toBe('link-local/cloud-metadata addresses are never allowed');
      }
      expect(connectSpy).not.toHaveBeenCalled();
    },
  );

  it('refuses a private-range literal when private networks are not allowed', async () => {
    const error = await rejection(client(LOOPBACK_OK).fetch('http://10.0.0.1:8080/'));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.details).toEqual({
      address: '10.0.0.1',
      reason: 'private network addresses are not allowed (set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow)',
    });
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('refuses metadata host names before any DNS lookup', async () => {
    const error = await rejection(client(EVERYTHING).getJson('http://metadata.google.internal/computeMetadata/v1/'));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.details).toEqual({
      address: 'metadata.google.internal',
      reason: 'link-local/cloud-metadata addresses are never allowed',
    });
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://10.0.0.1/',
    'http://metadata.google.internal/',
  ])('refuses a redirect from an allowed server to %s', async (location) => {
    const { url, hits } = await serve((_req, res) => {
      res.writeHead(302, { location });
      res.end();
    });

    const error = await rejection(client().fetch(`${url}/start`));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toMatch(/^Refusing to connect to /);
    expect(hits()).toBe(1);
    expect(connectedHosts()).toEqual(['127.0.0.1']);
  });

  it('follows redirects between allowed addresses and reports the final URL', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/old') {
        res.writeHead(301, { location: '/new' });
        res.end();
      } else {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ path: req.url }));
      }
    });

    const result = await client().getJson(`${url}/old`);
    expect(result).toMatchObject({ status: 200, url: `${url}/new`, body: { path: '/new' } });
    expect(result.headers.get('content-type')).toBe('application/json');
  });

  it('turns a POST into a GET without its body after a 303, and keeps both through a 307', async () => {
    const seen: string[] = [];
    const { url } = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${String(req.headers['content-type'])} ${body}`);
        if (req.url === '/see-other') res.writeHead(303, { location: '/result' }).end();
        else if (req.url === '/temporary') res.writeHead(307, { location: '/result' }).end();
        else res.end(`answered ${req.method}`);
      });
    });
    const http = client();
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' };

    const afterSeeOther = await http.fetch(`${url}/see-other`, post);
    expect(await afterSeeOther.text()).toBe('answered GET');
    expect(afterSeeOther).toMatchObject({ status: 200, redirected: true, url: `${url}/result` });
    const afterTemporary = await http.fetch(`${url}/temporary`, post);
    expect(await afterTemporary.text()).toBe('answered POST');
    expect(seen).toEqual([
      'POST /see-other application/json {"n":1}',
      'GET /result undefined ',
      'POST /temporary application/json {"n":1}',
      'POST /result application/json {"n":1}',
    ]);
  });

  it('does not carry Authorization to another origin, hands redirects back with manual, refuses them with error', async () => {
    const target = await serve((req, res) => res.end(String(req.headers.authorization)));
    const { url, hits } = await serve((req, res) => {
      res.writeHead(302, { location: req.url === '/same' ? '/landing' : `${target.url}/landing` });
      res.end();
    });
    const http = client();
    const auth = { headers: { authorization: 'Bearer s3cret' } };

    expect(await (await http.fetch(`${url}/elsewhere`, auth)).text()).toBe('undefined');
    const manual = await http.fetch(`${url}/elsewhere`, { ...auth, redirect: 'manual' });
    expect(manual).toMatchObject({ status: 302, redirected: false, url: `${url}/elsewhere` });
    expect(manual.headers.get('location')).toBe(`${target.url}/landing`);
    await expect(http.fetch(`${url}/elsewhere`, { redirect: 'error' })).rejects.toMatchObject({
      code: ErrorCode.UPSTREAM_FAILED,
    });
    expect(hits()).toBe(3);
  });

  it('gives up after 20 redirects', async () => {
    const { url, hits } = await serve((_req, res) => res.writeHead(302, { location: '/again' }).end());
    const error = await rejection(client().fetch(`${url}/loop`));
    expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
    expect(error.details).toMatchObject({ reason: 'too many redirects' });
    expect(hits()).toBe(21);
  });

  it('sends what fetch would add, decodes compressed bodies and gives bodiless answers no body', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify({ ok: true })));
      } else if (req.url === '/empty') {
        res.writeHead(204).end();
      } else {
        req.resume();
        req.on('end', () => res.end(JSON.stringify(req.headers)));
      }
    });
    const http = client();

    const sent = (await (await http.fetch(`${url}/headers`, { method: 'POST', body: 'hi' })).json()) as Record<
      string,
      string
    >;
    expect(sent).toMatchObject({
      accept: '*/*',
      'content-type': 'text/plain;charset=UTF-8',
      'content-length': '2',
      'user-agent': expect.stringMatching(/^switchboard\//),
    });
    expect(await (await http.fetch(`${url}/gzip`)).json()).toEqual({ ok: true });
    const empty = await http.fetch(`${url}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const head = await http.fetch(`${url}/headers`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('resolves a host name, checks the address and connects to it, keeping the Host header', async () => {
    let host: string | undefined;
    const { port, hits } = await serve((req, res) => {
      host = req.headers.host;
      res.end('ok');
    });

    const refused = await rejection(client(STRICT).fetch(`http://localhost:${port}/`));
    expect(refused.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(['127.0.0.1', '::1']).toContain(refused.details?.address);
    expect(hits()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();

    const response = await client().fetch(`http://localhost:${port}/`);
    expect(await response.text()).toBe('ok');
    expect(host).toBe(`localhost:${port}`);
    expect(connectedHosts()).toContain('127.0.0.1');
    expect(connectedHosts()).not.toContain('localhost');
  });

  it('connects TLS to the checked address with the host name as SNI', async () => {
    const tlsSpy = jest.spyOn(tls, 'connect');
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const error = await rejection(client().fetch(`https://localhost:${port}/`));
      expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
      const options = tlsSpy.mock.calls.map((args: unknown[]) => args[0] as tls.ConnectionOptions);
      expect(options[0]).toMatchObject({ host: '127.0.0.1', servername: 'localhost', port: String(port) });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reports a closed port as connection refused', async () => {
    const { port } = await serve(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));

    const error = await rejection(client().getJson(`http://127.0.0.1:${port}/`));
    expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
    expect(error.details?.reason).toBe('connection refused');
    expect(outboundFailureReason(error)).toBe('connection refused');

    const viaFetch = await rejection(client().fetch(`http://127.0.0.1:${port}/`));
    expect(outboundFailureReason(viaFetch)).toBe('connection refused');
  });

  it('reports an unknown host as host not found', async () => {
    const error = await rejection(client().getJson('http://does-not-exist.invalid/'));
    expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
    expect(error.details).toEqual({ host: 'does-not-exist.invalid', reason: 'host not found' });
    expect(outboundFailureReason(error)).toBe('host not found');
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('tells a resolver that cannot answer now (EAI_AGAIN) from a host that does not exist', async () => {
    const failure = Object.assign(new Error('getaddrinfo EAI_AGAIN agent.example.com'), { code: 'EAI_AGAIN' });
    const lookup = jest.spyOn(dns, 'lookup').mockRejectedValueOnce(failure);
    try {
      const error = await rejection(client().getJson('http://agent.example.com/'));
      expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
      expect(error.details).toEqual({ host: 'agent.example.com', reason: 'DNS lookup failed, try again' });
      expect(error.message).toBe('Could not resolve agent.example.com: DNS lookup failed, try again');
    } finally {
      lookup.mockRestore();
    }
  });

  it('times out quickly on a server that never answers', async () => {
    const { url } = await serve(() => undefined);
    const started = Date.now();

    const error = await rejection(client({ ...LOOPBACK_OK, timeoutMs: 150 }).fetch(`${url}/`));
    expect(error.code).toBe(ErrorCode.UPSTREAM_TIMEOUT);
    expect(error.details).toMatchObject({ reason: 'timeout', timeoutMs: 150 });
    expect(outboundFailureReason(error)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('bounds the whole getJson request, body included', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"slow":');
    });
    const started = Date.now();

    const error = await rejection(client().getJson(`${url}/`, { timeoutMs: 200 }));
    expect(error.code).toBe(ErrorCode.UPSTREAM_TIMEOUT);
    expect(error.details?.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses an oversized body while it streams, without Content-Length', async () => {
    let chunked: string | number | string[] | undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`["${'a'.repeat(600)}",`);
      res.write(`"${'b'.repeat(600)}",`);
      chunked = res.getHeader('transfer-encoding') ?? 'chunked';
      // …and never ends: the limit, not the end of the body, must stop the read.
    });

    const error = await rejection(client().getJson(`${url}/`, { maxResponseBytes: 1000, timeoutMs: 5000 }));
    expect(chunked).toBe('chunked');
    expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
    expect(error.details).toMatchObject({ reason: 'response too large', maxBytes: 1000 });
    expect(outboundFailureReason(error)).toBe('response too large');
  });

  it.each([
    ['with Content-Length', '/declared'],
    ['as it streams, never ending', '/endless'],
    ['once decoded (a gzip bomb)', '/bomb'],
  ])('fetch refuses an answer larger than maxAnswerBytes %s, and reads the next one', async (_how, path) => {
    const { url } = await serve((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 70_000 });
        res.end(`"${'a'.repeat(69_998)}"`);
      } else if (req.url === '/endless') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const more = (): void => void (res.write('a'.repeat(16_384)) ? setImmediate(more) : res.once('drain', more));
        more();
        req.socket.once('close', () => res.destroy());
      } else if (req.url === '/bomb') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(`"${' '.repeat(5_000_000)}"`));
      } else {
        res.end('{"ok":true}');
      }
    });
    const http = client();

    const error = await rejection(http.fetch(`${url}${path}`, { method: 'POST', body: '{}' }));
    expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
    expect(error.details).toMatchObject({ reason: 'response too large', maxBytes: 64 * 1024 });
    expect(error.message).toBe(`Response from ${url} is larger than 65536 bytes`);
    expect(await (await http.fetch(`${url}/fine`)).json()).toEqual({ ok: true });
  });

  it('answers a status without reading the body: no size limit applies (statusOf, for webhooks)', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      const more = (): void => void (res.write('a'.repeat(16_384)) ? setImmediate(more) : res.once('drain', more));
      more();
      req.socket.once('close', () => res.destroy());
    });
    const http = client();
    await expect(http.statusOf(`${url}/hook`, { method: 'POST', body: '{}' })).resolves.toBe(202);
    await expect(http.statusOf('http://169.254.169.254/', { method: 'POST' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
  });

  it('reports a body that is not JSON clearly', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/html' });
      res.end('<html>nope</html>');
    });

    const error = await rejection(client().getJson(`${url}/card`));
    expect(error.code).toBe(ErrorCode.UPSTREAM_FAILED);
    expect(error.details).toMatchObject({ reason: 'invalid JSON', status: 200, contentType: 'text/html' });
    expect(error.message).toMatch(
      /^Response from http:\/\/127\.0\.0\.1:\d+ is not JSON \(HTTP 200, content-type text\/html\): /,
    );

    const missing = await client().getJson(`${url}/missing`);
    expect(missing).toMatchObject({ status: 404, body: '<html>nope</html>' });
  });

  it('streams an event-stream body incrementally, past timeoutMs', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      void released.then(() => res.end('data: two\n\n'));
    });

    const response = await client({ ...LOOPBACK_OK, timeoutMs: 200 }).fetch(`${url}/stream`, {
      method: 'POST',
      headers: { accept: 'text/event-stream' },
      body: '{}',
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 'data: one\n\n' });

    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    expect(await reader.read()).toEqual({ done: false, value: 'data: two\n\n' });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it("honours the caller's AbortSignal before and after the headers", async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
      }
    });
    const http = client();

    const beforeHeaders = new AbortController();
    setTimeout(() => beforeHeaders.abort(), 50);
    const started = Date.now();
    await expect(http.fetch(`${url}/hang`, { signal: beforeHeaders.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(Date.now() - started).toBeLessThan(1500);

    const midStream = new AbortController();
    const response = await http.fetch(`${url}/stream`, { signal: midStream.signal });
    const reader = response.body!.getReader();
    await reader.read();
    midStream.abort();
    const error: unknown = await reader.read().then(
      () => new Error('expected the read to fail'),
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(outboundFailureReason(error)).toBe('aborted');
  });

  it('accepts a Request object as fetch does', async () => {
    const { url } = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => res.end(`${req.method} ${String(req.headers['x-test'])} ${body}`));
    });

    const response = await client().fetch(
      new Request(`${url}/echo`, { method: 'POST', headers: { 'x-test': 'yes' }, body: 'hello' }),
    );
    expect(await response.text()).toBe('POST yes hello');
  });

  it.each([
    ['not a url', 'invalid URL'],
    ['file:///etc/passwd', 'unsupported URL scheme'],
    ['ftp://example.com/card.json', 'unsupported URL scheme'],
  ])('refuses %s as a validation failure', async (url, reason) => {
    const error = await rejection(client().getJson(url));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.details?.reason).toBe(reason);
  });

  it('finds the reason through cause chains', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(outboundFailureReason(new TypeError('fetch failed', { cause: refused }))).toBe('connection refused');
    expect(
      outboundFailureReason(
        new Error('SDK wrapper', {
          cause: new DomainError(ErrorCode.UPSTREAM_TIMEOUT, 'timed out', { details: { reason: 'timeout' } }),
        }),
      ),
    ).toBe('timeout');
    expect(outboundFailureReason(new Error('something else'))).toBe('request failed');
  });
});
