import { ErrorCode } from '../errors/error-code';
import { parseLimitedJson, scanJson, textProblem } from './json-limits';

const limits = { maxDepth: 8, maxItems: 5, maxStringBytes: 16 };
const scan = (text: string) => scanJson(Buffer.from(text, 'utf8'), limits);

describe('scanJson', () => {
  it('passes documents within every limit, however they are spaced', () => {
    expect(scan('{"a": [1, 2, {"b": "c"}], "d": "[[[[[[[[[["}').problem).toBeUndefined();
    expect(scan('[[[[[[[[]]]]]]]]').problem).toBeUndefined();
    expect(scan(`[${'1,'.repeat(4)}1]`).problem).toBeUndefined();
    expect(scan(`"${'x'.repeat(16)}"`).problem).toBeUndefined();
  });

  it('refuses nesting deeper than the limit, naming it', () => {
    const { problem } = scan('[[[[[[[[[]]]]]]]]]');
    expect(problem?.code).toBe(ErrorCode.INVALID_REQUEST);
    expect(problem?.message).toContain('nested deeper than 8 levels');
    expect(problem?.details).toEqual({ limit: 'JSON_MAX_DEPTH', max: 8 });
    expect(scan(`{"a":${'{"a":'.repeat(8)}1${'}'.repeat(9)}`).problem?.details?.limit).toBe('JSON_MAX_DEPTH');
  });

  it('counts items per array or object, not across them', () => {
    expect(scan(`[${'1,'.repeat(5)}1]`).problem?.details).toEqual({ limit: 'JSON_MAX_ITEMS', max: 5 });
    expect(scan(`{${'"k":1,'.repeat(5)}"k":1}`).problem?.details?.limit).toBe('JSON_MAX_ITEMS');
    expect(scan('[[1,2,3,4],[1,2,3,4],[1,2,3,4],[1]]').problem).toBeUndefined();
  });

  it('refuses strings longer than the limit, and does not count brackets or commas inside strings', () => {
    expect(scan(`"${'x'.repeat(17)}"`).problem?.details).toEqual({ limit: 'JSON_MAX_STRING_BYTES', max: 16 });
    expect(scan('["[[[[[[[[[", ",,,,,,"]').problem).toBeUndefined();
    expect(scan('["a\\"[[[[[[[[[["]').problem).toBeUndefined();
  });

  it('flags escaped NULs and surrogates only', () => {
    expect(scan('{"a": "x\\u0000"}').suspectText).toBe(true);
    expect(scan('{"a": "\\ud83d\\ude00"}').suspectText).toBe(true);
    expect(scan('{"a": "\\uDFFF"}').suspectText).toBe(true);
    expect(scan('{"a": "\\u00e9 \\u0001 \\\\u0000"}').suspectText).toBe(false);
  });
});

describe('textProblem', () => {
  it('names the first field holding a NUL or an unpaired surrogate', () => {
    expect(textProblem({ a: [{ b: 'ok' }, { c: 'x\u0000' }] }, 'body')?.details).toEqual({
      fields: [{ field: 'body.a[1].c', reason: expect.stringContaining('NUL') }],
    });
    expect(textProblem({ a: '\ud800' }, 'params')?.message).toContain('params.a');
    expect(textProblem({ a: 'x\udc00' }, 'params')?.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(textProblem({ ['k\u0000']: 1 }, 'body')?.message).toContain('body (a member name)');
  });

  it('accepts paired surrogates (emoji) and ordinary control characters', () => {
    expect(textProblem({ a: '😀 \u0001 é', b: ['\ud83d\ude00'] }, 'body')).toBeUndefined();
  });
});

describe('parseLimitedJson', () => {
  it('parses, and refuses what a body would be refused for', () => {
    expect(parseLimitedJson('{"a":[1]}', limits, 'inputs_json')).toEqual({ a: [1] });
    expect(() => parseLimitedJson('{"a":', limits, 'inputs_json')).toThrow('inputs_json is not valid JSON');
    expect(() => parseLimitedJson('[[[[[[[[[1]]]]]]]]]', limits, 'x')).toThrow('JSON_MAX_DEPTH');
    expect(() => parseLimitedJson('{"a":"\\u0000"}', limits, 'inputs_json')).toThrow('inputs_json.a');
  });
});
