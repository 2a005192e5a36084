import {
  fromProtoEnum,
  fromProtoStruct,
  fromProtoValue,
  toProtoDuration,
  toProtoEnum,
  toProtoStruct,
  toProtoTimestamp,
} from './grpc-wkt';

describe('grpc-wkt (our values as proto-loader well-known types and enums)', () => {
  it('writes JSON as a Struct of Values, nested lists and objects included', () => {
    expect(toProtoStruct({ a: 1, b: 'x', c: [true, null], d: { e: {} }, skipped: undefined })).toEqual({
      fields: {
        a: { numberValue: 1 },
        b: { stringValue: 'x' },
        c: { listValue: { values: [{ boolValue: true }, { nullValue: 'NULL_VALUE' }] } },
        d: { structValue: { fields: { e: { structValue: { fields: {} } } } } },
      },
    });
  });

  it('writes times as Timestamps with nanos, and leaves missing or invalid times unset', () => {
    expect(toProtoTimestamp('2026-11-25T04:31:28.123Z')).toEqual({ seconds: '1795581088', nanos: 123_000_000 });
    expect(toProtoTimestamp(new Date(0))).toEqual({ seconds: '0', nanos: 0 });
    for (const none of [null, undefined, '', 'not a time']) expect(toProtoTimestamp(none)).toBeUndefined();
    expect(toProtoDuration(42.9)).toEqual({ seconds: '42', nanos: 0 });
  });

  it('names enum values with their prefix and reads them back', () => {
    expect(toProtoEnum('KV_BACKEND', 'in-process')).toBe('KV_BACKEND_IN_PROCESS');
    expect(toProtoEnum('AUTH_MODE', 'api_key')).toBe('AUTH_MODE_API_KEY');
    const modes = ['none', 'api_key', 'bearer'] as const;
    expect(fromProtoEnum('AUTH_MODE', modes, 'AUTH_MODE_BEARER')).toBe('bearer');
    expect(fromProtoEnum('AUTH_MODE', modes, 'AUTH_MODE_UNSPECIFIED')).toBeUndefined();
    expect(fromProtoEnum('AUTH_MODE', modes, undefined)).toBeUndefined();
    expect(fromProtoEnum('AUTH_MODE', modes, 7)).toBe('7');
  });

  it('reads Structs and Values as proto-loader decodes them back into JSON', () => {
    const json = { a: 1, b: 'x', c: [true, null], d: { e: {} } };
    const decoded = toProtoStruct(json);
    expect(fromProtoStruct(decoded)).toEqual(json);
    expect(fromProtoValue({ kind: 'stringValue', stringValue: 's' })).toBe('s');
    expect(fromProtoValue({ kind: 'nullValue', nullValue: 'NULL_VALUE' })).toBeNull();
    expect(fromProtoStruct(null)).toBeUndefined();
  });
});
