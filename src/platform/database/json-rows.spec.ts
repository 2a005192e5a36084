import { jsonRows, wellFormed } from './json-rows';

describe('jsonRows', () => {
  it('writes the rows as one JSON array, dates as ISO text and arrays as they are', () => {
    const at = new Date('2026-11-27T09:00:00.000Z');
    expect(JSON.parse(jsonRows([{ id: 'a', at, agents: ['x', 'y'], none: null }]))).toEqual([
      { id: 'a', at: '2026-11-27T09:00:00.000Z', agents: ['x', 'y'], none: null },
    ]);
  });

  it('turns unpaired surrogates into U+FFFD at any depth, and keeps pairs and escaped backslashes', () => {
    const text = jsonRows([{ said: 'lone \ud83d here', nested: { list: ['\ude00 too', 'pair 😀', '\\ud800 typed'] } }]);
    expect(text).not.toMatch(/(?<!\\)\\ud[89a-f]/i);
    expect(JSON.parse(text)).toEqual([
      { said: 'lone \ufffd here', nested: { list: ['\ufffd too', 'pair 😀', '\\ud800 typed'] } },
    ]);
  });

  it('wellFormed leaves well-formed text alone', () => {
    expect(wellFormed('plain 😀 text')).toBe('plain 😀 text');
    expect(wellFormed('\ud800')).toBe('\ufffd');
  });
});
