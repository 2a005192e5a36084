import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import { PROTO_DIR } from '../../paths';
import { toProtoStruct, toProtoStructLazy } from './grpc-wkt';
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
    const cards = [CARD, {}, { only: 'one' }];
    const answer = { cards: cards.map((card) => toProtoStructLazy(card)) };
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    const bytes = fast(answer);
    expect(bytes.equals(serialize({ cards: cards.map((card) => toProtoStruct(card)) }))).toBe(true);
    const decoded = listAgentCards.responseDeserialize(bytes) as { cards: unknown[] };
    expect(decoded.cards).toHaveLength(3);
    expect(bytes.length).toBeGreaterThan(200);
  });

  it('writes an empty answer as protobufjs does', () => {
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    expect(fast({ cards: [] }).equals(serialize({ cards: [] }))).toBe(true);
    expect(fast({}).equals(serialize({}))).toBe(true);
  });

  it('reads JSON as toProtoValue does: undefined fields left out, odd values as null', () => {
    const odd = {
      gone: undefined,
      nan: NaN,
      infinite: -Infinity,
      fn: () => 1,
      list: [undefined, 1n],
      date: new Date(0),
    };
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    const bytes = fast({ cards: [toProtoStructLazy(odd)] });
    expect(bytes.equals(serialize({ cards: [toProtoStruct(odd)] }))).toBe(true);
  });

  it("leaves Structs that are not toProtoStructLazy's to protobufjs, and lazy ones still read as Structs", () => {
    const eager = toProtoStruct({ a: 1 });
    expect(encodeStruct(eager)).toBeUndefined();
    const mixed = { cards: [toProtoStructLazy({ a: 1 }), eager] };
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    expect(fast(mixed).equals(serialize({ cards: [eager, eager] }))).toBe(true);
    expect(toProtoStructLazy(CARD).fields).toEqual(toProtoStruct(CARD).fields);
  });

  it("keeps a frozen object's bytes for the next answer, and writes an unfrozen one afresh each time", () => {
    const frozen = Object.freeze({ name: 'kept', skills: Object.freeze([Object.freeze({ id: 'a' })]) });
    const first = encodeStruct(toProtoStructLazy(frozen))!;
    expect(encodeStruct(toProtoStructLazy(frozen))).toBe(first);
    expect(first.equals(encodeStruct(toProtoStructLazy({ ...frozen }))!)).toBe(true);

    const open = { name: 'before' };
    const before = encodeStruct(toProtoStructLazy(open))!;
    open.name = 'after, longer';
    const after = encodeStruct(toProtoStructLazy(open))!;
    expect(after).not.toBe(before);
    expect(after.length).toBeGreaterThan(before.length);
    const fast = structSerializer(listAgentCards.responseType, serialize)!;
    expect(fast({ cards: [toProtoStructLazy(open)] }).equals(serialize({ cards: [toProtoStruct(open)] }))).toBe(true);
  });

  it('leaves messages without Struct fields of their own to proto-loader', () => {
    expect(structSerializer(registry.GetAgent.responseType, serialize)).toBeUndefined();
    expect(structSerializer(registry.DeleteAgent.responseType, serialize)).toBeUndefined();
  });
});
