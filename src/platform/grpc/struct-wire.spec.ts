import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import { PROTO_DIR } from '../../paths';
import { toProtoStruct } from './grpc-wkt';
import { structSerializer } from './struct-responses';
import { encodeStruct } from './struct-wire';

const definition = protoLoader.loadSync(join(PROTO_DIR, 'switchboard/v2/registry.proto'), {
  includeDirs: [PROTO_DIR],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const registry = definition['switchboard.v2.RegistryService'] as Record<
  string,
  protoLoader.MethodDefinition<object, object>
>;
const listAgentCards = registry.ListAgentCards;
const serialize = listAgentCards.responseSerialize as (value: unknown) => Buffer;

const CARD = {
  protocolVersion: '0.3.0',
  name: 'Lights — salon ☀',
  url: 'http://127.0.0.1:9/a2a',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  skills: [{ id: 'on', name: 'On', tags: [], examples: ['turn on', ''] }, {}],
  securitySchemes: null,
  rank: 0,
  weight: -1.5,
  big: 2 ** 40,
  nested: { deeper: { list: [[1, 'two', null, false, { x: [] }]] } },
  empty: '',
  emoji: 'on 😀 and é',
  long: `${'a long description of what the agent does, '.repeat(5)}— fin ✓`,
  longAscii: 'x'.repeat(300),
};

describe('struct-wire: google.protobuf.Struct written without protobufjs', () => {
  it("writes the bytes protobufjs writes for a v2 ListAgentCards answer, which decode to the cards' JSON", () => {
    const answer = { cards: [toProtoStruct(CARD), toProtoStruct({}), toProtoStruct({ only: 'one' })] };
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    const bytes = fast(answer);
    expect(bytes.equals(serialize(answer))).toBe(true);
    const decoded = listAgentCards.responseDeserialize(bytes) as { cards: unknown[] };
    expect(decoded.cards).toHaveLength(3);
    expect(bytes.length).toBeGreaterThan(200);
  });

  it('writes an empty answer as protobufjs does', () => {
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    expect(fast({ cards: [] }).equals(serialize({ cards: [] }))).toBe(true);
    expect(fast({}).equals(serialize({}))).toBe(true);
  });

  it("gives up on a value of another shape, and the answer is protobufjs's", () => {
    expect(encodeStruct({ fields: { n: { numberValue: '3' } } } as never)).toBeUndefined();
    expect(encodeStruct({ fields: { n: { stringValue: 'a', boolValue: true } } })).toBeUndefined();
    expect(encodeStruct({ fields: { n: {} } } as never)).toBeUndefined();
    const odd = { cards: [{ fields: { n: { numberValue: '3' } } }] };
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    expect(fast(odd).equals(serialize(odd))).toBe(true);
  });

  it('leaves messages without Struct fields of their own to proto-loader', () => {
    expect(structSerializer(registry.GetAgent.responseType, serialize)).toBeUndefined();
    expect(structSerializer(registry.DeleteAgent.responseType, serialize)).toBeUndefined();
  });
});
