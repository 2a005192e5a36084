import { Headers } from 'undici';
import { bufferedResponse } from './fetch-response';

describe('bufferedResponse', () => {
  const make = (text: string) =>
    bufferedResponse(Buffer.from(text), { status: 201, headers: new Headers({ 'content-type': 'application/json' }) });

  it('answers as a fetch Response does: status, headers, the body once', async () => {
    const response = make('{"ok":true}');
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('reads as bytes, an ArrayBuffer, or a web stream when asked', async () => {
    expect(Buffer.from(await make('abc').arrayBuffer()).toString()).toBe('abc');
    expect(Buffer.from(await (make('abc') as Response & { bytes(): Promise<Uint8Array> }).bytes()).toString()).toBe(
      'abc',
    );
    const streamed = make('streamed');
    expect(streamed.body).toBe(streamed.body); // one stream, as a Response has
    const reader = streamed.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(Buffer.concat(chunks).toString()).toBe('streamed');
  });

  it('clones an unread body, and refuses to clone a read one', async () => {
    const response = make('twice');
    const copy = response.clone();
    expect(await response.text()).toBe('twice');
    expect(await copy.text()).toBe('twice');
    expect(() => response.clone()).toThrow(TypeError);
  });
});
