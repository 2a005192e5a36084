import { lazyStructJson, type ProtoStruct } from './grpc-wkt';

/**
 * google.protobuf.Struct in protobuf wire format, written straight from the JSON a
 * toProtoStructLazy Struct stands for, into one buffer: the sizes in a first walk, the bytes in a
 * second. protobufjs spends several times the cost of JSON.stringify on a Struct (the Struct of
 * Values is built, then fromObject builds a message per value, then each nested message is forked,
 * measured and copied); this writes the same bytes - the JSON read as toProtoValue reads it, fields
 * in the same order, every set oneof member written, as protobufjs does - at a fraction of that.
 * Any other Struct gets undefined, and the caller uses protobufjs.
 *
 *   Struct    { map<string, Value> fields = 1; }       entry: { string key = 1; Value value = 2; }
 *   Value     { oneof kind { NullValue null_value = 1; double number_value = 2; string string_value = 3;
 *                            bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; } }
 *   ListValue { repeated Value values = 1; }
 */
export function encodeStruct(struct: ProtoStruct): Buffer | undefined {
  const json = lazyStructJson(struct);
  if (json === undefined) return undefined;
  const kept = written.get(json);
  if (kept) return kept;
  const sizes: number[] = [];
  const out = new Output(Buffer.allocUnsafe(objectSize(json, sizes)), sizes);
  out.object(json);
  if (Object.isFrozen(json)) written.set(json, out.buffer);
  return out.buffer;
}

/**
 * The bytes of each frozen JSON object written so far (toProtoStructLazy: a frozen object is frozen
 * all the way down), such as the registry's cards: the same card is written once, not per answer.
 * Callers copy the bytes into the answer and never change them.
 */
const written = new WeakMap<object, Buffer>();

/** The tag and length of a length-delimited (wire type 2) field `number` of `length` bytes, which follow it. */
export function delimitedHead(number: number, length: number): Buffer {
  const head = Buffer.allocUnsafe(varintSize((number << 3) | 2) + varintSize(length));
  writeVarint(head, writeVarint(head, 0, (number << 3) | 2), length);
  return head;
}

/** Up to this many characters, a string is measured and (if ASCII) copied in JavaScript: cheaper than a call into C++. */
const SHORT_STRING = 64;

/** UTF-8 length of `text` (lone surrogates count as the 3-byte U+FFFD that Buffer.write puts for them). */
function utf8Length(text: string): number {
  if (text.length > SHORT_STRING) return Buffer.byteLength(text, 'utf8');
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) length += 1;
    else if (c < 0x800) length += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) size++;
  return size;
}

function writeVarint(buffer: Buffer, at: number, value: number): number {
  let rest = value >>> 0;
  while (rest > 0x7f) {
    buffer[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  buffer[at++] = rest;
  return at;
}

/** A one-byte tag, the length and the content: what a length-delimited field of `size` bytes takes. */
const delimited = (size: number) => 1 + varintSize(size) + size;

/**
 * The first walk. The size of each message (Struct, map entry, Value, ListValue) and the UTF-8
 * length of each string are pushed to `sizes` in the order the second walk meets them, a message's
 * slot taken before its children's.
 */
function objectSize(object: object, sizes: number[]): number {
  const slot = sizes.push(0) - 1;
  let size = 0;
  for (const key of Object.keys(object)) {
    const value = (object as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const entrySlot = sizes.push(0, 0) - 2;
    const keyLength = (sizes[entrySlot + 1] = utf8Length(key));
    const entry = delimited(keyLength) + delimited(valueSize(value, sizes));
    sizes[entrySlot] = entry;
    size += delimited(entry);
  }
  sizes[slot] = size;
  return size;
}

/** A JSON value as toProtoValue reads it: finite numbers, strings, booleans, lists, objects; anything else null. */
function valueSize(value: unknown, sizes: number[]): number {
  const slot = sizes.push(0) - 1;
  let size = 2; // null_value, bool_value
  if (typeof value === 'string') size = delimited((sizes[sizes.push(0) - 1] = utf8Length(value)));
  else if (typeof value === 'number') size = Number.isFinite(value) ? 9 : 2;
  else if (Array.isArray(value)) {
    const listSlot = sizes.push(0) - 1;
    let list = 0;
    for (const item of value as unknown[]) list += delimited(valueSize(item, sizes));
    sizes[listSlot] = list;
    size = delimited(list);
  } else if (value !== null && typeof value === 'object') size = delimited(objectSize(value, sizes));
  sizes[slot] = size;
  return size;
}

/** The second walk: the same order as the first, each size read from `sizes`. */
class Output {
  private at = 0;
  private next = 0;

  constructor(
    readonly buffer: Buffer,
    private readonly sizes: number[],
  ) {}

  object(object: object): void {
    this.next++;
    for (const key of Object.keys(object)) {
      const value = (object as Record<string, unknown>)[key];
      if (value === undefined) continue;
      this.head(0x0a, this.sizes[this.next++]);
      this.string(0x0a, key, this.sizes[this.next++]);
      this.head(0x12, this.sizes[this.next]);
      this.value(value);
    }
  }

  private value(value: unknown): void {
    this.next++;
    const buffer = this.buffer;
    if (typeof value === 'string') this.string(0x1a, value, this.sizes[this.next++]);
    else if (typeof value === 'number' && Number.isFinite(value)) {
      buffer[this.at++] = 0x11;
      this.at = buffer.writeDoubleLE(value, this.at);
    } else if (typeof value === 'boolean') {
      buffer[this.at++] = 0x20;
      buffer[this.at++] = value ? 1 : 0;
    } else if (Array.isArray(value)) {
      this.head(0x32, this.sizes[this.next++]);
      for (const item of value as unknown[]) {
        this.head(0x0a, this.sizes[this.next]);
        this.value(item);
      }
    } else if (value !== null && typeof value === 'object') {
      this.head(0x2a, this.sizes[this.next]);
      this.object(value);
    } else {
      buffer[this.at++] = 0x08;
      buffer[this.at++] = 0;
    }
  }

  private head(tag: number, size: number): void {
    this.buffer[this.at++] = tag;
    this.at = writeVarint(this.buffer, this.at, size);
  }

  /** `text` of `length` UTF-8 bytes: short ASCII copied here, anything else by Buffer.write. */
  private string(tag: number, text: string, length: number): void {
    this.head(tag, length);
    const buffer = this.buffer;
    if (length === text.length && length <= SHORT_STRING) {
      for (let i = 0; i < length; i++) buffer[this.at++] = text.charCodeAt(i);
    } else this.at += buffer.write(text, this.at, length, 'utf8');
  }
}
